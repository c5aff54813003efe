import { useEffect, useState } from 'react';
import type { RevertAnswer, RevertLink } from '../../../../main/service/contract/revert-api';
import type { TransactionDetail } from '../../../../main/service/contract/transaction-api';
import { asFault, type ApiFault } from '../../api/fault';
import { FINISHED } from '../../api/finished';
import { FaultNotice } from '../../components/FaultNotice';
import { useSlice, useStores } from '../../store/stores';
import { shortId } from './tx-format';

/**
 * A bulk load's Revert (README: Reverting a load): its revert plan made on the service, a staged
 * workbook of its own, then opened in the workbook grid, where its conflicts show and from where
 * it is loaded. Also what links the load and its reverts: the reverts made of it, or for a
 * revert's own load the load it reverts. Only in the Local workspace: a live remote's loads are
 * not kept here, and a push is not reverted yet.
 */
const revertPath = (id: string): string => `/workstation/transactions/${encodeURIComponent(id)}/revert/`;

export function RevertPanel({ detail }: { detail: TransactionDetail }) {
  const { client, nav } = useStores();
  const local = useSlice('workspace', (s) => s.current === 'Local');
  const [link, setLink] = useState<RevertLink>();
  const [busy, setBusy] = useState(false);
  const [fault, setFault] = useState<ApiFault>();
  const isLoad = local && detail.action === 'Execute Bulk Load' && !detail.parent_id;
  const finished = FINISHED.has(detail.status);
  const id = detail.transaction_id;

  useEffect(() => {
    if (!isLoad || !finished) return;
    let current = true;
    client.get<RevertLink>(revertPath(id)).then(
      (answer) => current && setLink(answer),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [client, id, isLoad, finished]);

  if (!isLoad) return null;
  const revert = async (): Promise<void> => {
    setBusy(true);
    setFault(undefined);
    try {
      const answer = await client.send<RevertAnswer>('POST', revertPath(id));
      nav.getState().go({ view: 'workbook', workbookId: answer.workbook.id });
    } catch (error) {
      setFault(asFault(error));
    } finally {
      setBusy(false);
    }
  };
  const reverts = link?.reverts;
  return (
    <div className="card tx-revert" data-testid="transaction-revert">
      {reverts && (
        <p>
          This load reverts{' '}
          <button type="button" className="link" onClick={() => nav.getState().go({ view: 'transaction', transactionId: reverts })}>
            load {shortId(reverts)}
          </button>
          .
        </p>
      )}
      {link && link.reverted_by.length > 0 && (
        <ul aria-label="Reverts of this load">
          {link.reverted_by.map((made) => (
            <li key={made.workbook_id}>
              <button type="button" className="link" onClick={() => nav.getState().go({ view: 'workbook', workbookId: made.workbook_id })}>
                {made.name}
              </button>{' '}
              <span className="muted">
                {made.state}
                {made.plan ? `: ${made.plan.totals.conflict} conflict(s), ${made.plan.totals.error} error(s)` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p>
        <button type="button" disabled={!finished || busy} onClick={() => void revert()}>
          {busy ? 'Making the revert plan...' : 'Revert this load...'}
        </button>{' '}
        <span className="muted">
          {finished
            ? 'Makes a workbook that undoes what its rows did, where nothing changed since; nothing changes until you load it.'
            : 'A load is reverted once it has finished.'}
        </span>
      </p>
      {fault && <FaultNotice fault={fault} />}
    </div>
  );
}
