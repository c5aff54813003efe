import { useEffect, useState } from 'react';
import type { SubTransaction, TransactionDetail, TransactionList } from '../../../../main/service/contract/transaction-api';
import { asFault } from '../../api/fault';
import { useStores } from '../../store/stores';
import { pillClass, shortId } from './tx-format';

/** Rows read at a time past the parent's own first 100 (decisions.md: a parent's answer is bounded). */
const PAGE = 100;

/**
 * The sub-transactions (a bulk load's rows, a multi-delete's instances), each opening its detail.
 * The parent's answer lists its first 100 and counts them all by status, however many there are
 * (a poll of a 100,000-row load stays small); the rest are read a page at a time on request,
 * through the transaction list with `parent_id`.
 */
export function SubTransactionList({ detail }: { detail: TransactionDetail }) {
  const { nav, client } = useStores();
  const [more, setMore] = useState<SubTransaction[]>([]);
  const [fault, setFault] = useState<string>();
  const [reading, setReading] = useState(false);
  useEffect(() => {
    setMore([]);
    setFault(undefined);
  }, [detail.transaction_id]);
  const counts = detail.sub_transaction_counts ?? { total: detail.sub_transactions.length };
  const subs = [...detail.sub_transactions, ...more];
  if (counts.total === 0 && subs.length === 0) return null;
  const failed = counts.Fail ?? 0;
  const shown = [...subs.filter((sub) => sub.status === 'Fail'), ...subs.filter((sub) => sub.status !== 'Fail')];
  const readMore = async (): Promise<void> => {
    setReading(true);
    try {
      const page = await client.get<TransactionList>('/api/tool/Transaction/', {
        hierarchy: detail.resource?.hierarchy || 'sys',
        parent_id: detail.transaction_id,
        skip: String(subs.length),
        limit: String(PAGE),
      });
      setMore((before) => [
        ...before,
        ...page.resources.map(({ data }) => ({
          transaction_id: data.transaction_id,
          status: data.status,
          action: data.action,
          detail: data.detail,
        })),
      ]);
    } catch (error) {
      setFault(asFault(error).message);
    } finally {
      setReading(false);
    }
  };
  return (
    <div className="card tx-subs">
      <h2>
        Sub-transactions{' '}
        <span className="muted" data-testid="sub-transaction-counts">
          ({counts.total.toLocaleString('en')}
          {failed > 0 ? `, ${failed.toLocaleString('en')} failed` : ''})
        </span>
      </h2>
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
      {counts.total > subs.length && (
        <p className="muted">
          {(counts.total - subs.length).toLocaleString('en')} more.{' '}
          <button type="button" disabled={reading} onClick={() => void readMore()}>
            Show {Math.min(PAGE, counts.total - subs.length)} more
          </button>
        </p>
      )}
      {fault && <p role="alert">{fault}</p>}
    </div>
  );
}
