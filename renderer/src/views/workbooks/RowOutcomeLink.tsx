import type { WorkbookRow } from '../../../../main/service/contract/workbook-api';
import { useStores } from '../../store/stores';

/** What loading the chosen row did, with a way to its sub-transaction (its log says why a row failed). */
export function RowOutcomeLink({ row }: { row: WorkbookRow | undefined }) {
  const { nav } = useStores();
  const outcome = row?.outcome;
  if (!row || !outcome) return null;
  return (
    <span className={`row-outcome ${outcome.status}`} data-testid="row-outcome">
      {' '}
      Row {row.row}: {outcome.status}
      {outcome.message && ` (${outcome.message})`}{' '}
      <button
        type="button"
        className="link"
        onClick={() => nav.getState().go({ view: 'transaction', transactionId: outcome.transaction_id })}
      >
        Open its transaction
      </button>
    </span>
  );
}
