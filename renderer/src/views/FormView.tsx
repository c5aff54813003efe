import { Empty } from '../components/States';

/** Placeholder while this view is written. */
export function FormView() {
  return <Empty title="FormView is being built." />;
}
