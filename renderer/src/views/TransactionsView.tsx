import { Empty } from '../components/States';

/** Placeholder while this view is written. */
export function TransactionsView() {
  return <Empty title="TransactionsView is being built." />;
}
