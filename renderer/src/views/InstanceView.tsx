import { Empty } from '../components/States';

/** Placeholder while this view is written. */
export function InstanceView() {
  return <Empty title="InstanceView is being built." />;
}
