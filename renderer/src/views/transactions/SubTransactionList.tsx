import type { TransactionDetail } from '../../../../main/service/contract/transaction-api';
import { useStores } from '../../store/stores';
import { pillClass, shortId } from './tx-format';

/** A bulk load can have a sub-transaction per row: the list shows the failed ones first, then a page. */
const SHOWN = 200;

/** The sub-transactions (a bulk load's rows, a multi-delete's instances), each opening its detail. */
export function SubTransactionList({ detail }: { detail: TransactionDetail }) {
  const { nav } = useStores();
  const subs = detail.sub_transactions;
  if (subs.length === 0) return null;
  const failed = subs.filter((sub) => sub.status === 'Fail').length;
  const shown = [...subs.filter((sub) => sub.status === 'Fail'), ...subs.filter((sub) => sub.status !== 'Fail')].slice(0, SHOWN);
  return (
    <div className="card tx-subs">
      <h3>
        Sub-transactions{' '}
        <span className="muted">
          ({subs.length.toLocaleString('en')}
          {failed > 0 ? `, ${failed} failed` : ''})
        </span>
      </h3>
      <ul aria-label="Sub-transactions">
        {shown.map((sub) => (
          <li key={sub.transaction_id}>
            <button
              type="button"
              className="tx-sub"
              data-transaction-id={sub.transaction_id}
              onClick={() => nav.getState().go({ view: 'transaction', transactionId: sub.transaction_id })}
            >
              <span className={pillClass(sub.status)}>{sub.status}</span>
              <span>{sub.action}</span>
              <span className="tx-sub-detail" title={sub.detail}>
                {sub.detail}
              </span>
              <code className="muted">{shortId(sub.transaction_id)}</code>
            </button>
          </li>
        ))}
      </ul>
      {subs.length > SHOWN && <p className="muted">{(subs.length - SHOWN).toLocaleString('en')} more not shown.</p>}
    </div>
  );
}
