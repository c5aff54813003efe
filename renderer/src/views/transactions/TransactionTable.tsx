import { Empty, Loading } from '../../components/States';
import { useSlice, useStores } from '../../store/stores';
import { useKnownModels } from '../../store/use-model-catalog';
import { formatTime, pillClass, shortId, typeTitle } from './tx-format';

/** One page of transactions; a row (or its id, for the keyboard) opens the transaction's detail. */
export function TransactionTable() {
  const { nav, transactions } = useStores();
  const rows = useSlice('transactions', (s) => s.rows);
  const listState = useSlice('transactions', (s) => s.listState);
  const filtered = useSlice('transactions', (s) => Boolean(s.filters.status || s.filters.modelType));
  const models = useKnownModels();
  const open = (transactionId: string) => nav.getState().go({ view: 'transaction', transactionId });

  if (listState === 'loading' && rows.length === 0) return <Loading what="transactions" />;
  if (listState === 'error' && rows.length === 0) return null;
  if (listState === 'empty') {
    return (
      <Empty title={filtered ? 'No transaction matches these filters.' : 'No transactions here yet.'}>
        {filtered ? (
          <button type="button" className="link" onClick={() => void transactions.getState().setFilters({ status: '', modelType: '' })}>
            Clear the filters
          </button>
        ) : (
          'Adding, changing or deleting a resource at this node or below starts a transaction.'
        )}
      </Empty>
    );
  }
  return (
    <div className="tx-table-wrap">
      <table
        className="grid-table tx-table"
        data-testid="transaction-table"
        data-list-state={listState}
        aria-busy={listState === 'loading'}
      >
        <thead>
          <tr>
            <th scope="col">ID</th>
            <th scope="col">Action</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Detail</th>
            <th scope="col">Submitted</th>
            <th scope="col">User</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.transaction_id}
              data-transaction-id={row.transaction_id}
              className="tx-row"
              onClick={() => open(row.transaction_id)}
            >
              <td>
                <button
                  type="button"
                  className="link"
                  title={row.transaction_id}
                  onClick={(event) => (event.stopPropagation(), open(row.transaction_id))}
                >
                  <code>{shortId(row.transaction_id)}</code>
                </button>
              </td>
              <td title={row.action}>{row.action}</td>
              <td title={row.model_type}>{typeTitle(models, row.model_type)}</td>
              <td>
                <span className={pillClass(row.status)}>{row.status}</span>
              </td>
              <td className="tx-detail" title={row.detail}>
                {row.detail}
              </td>
              <td>{formatTime(row.submitted_time)}</td>
              <td>{row.username ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
