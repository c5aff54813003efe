import { Empty } from '../components/States';

/** Placeholder while this view is written. */
export function TransactionView() {
  return <Empty title="TransactionView is being built." />;
}
