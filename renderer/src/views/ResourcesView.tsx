import { Empty } from '../components/States';

/** Placeholder while this view is written. */
export function ResourcesView() {
  return <Empty title="ResourcesView is being built." />;
}
