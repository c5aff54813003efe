import { useEffect } from 'react';
import { FaultNotice } from '../components/FaultNotice';
import { Empty, Loading } from '../components/States';
import { FINISHED } from '../api/finished';
import { useSlice, useStores } from '../store/stores';
import { useKnownModels } from '../store/use-model-catalog';
import { TransactionFacts } from './transactions/TransactionFacts';
import { TransactionLog } from './transactions/TransactionLog';
import { SubTransactionList } from './transactions/SubTransactionList';
import { RevertPanel } from './transactions/RevertPanel';
import { pillClass, shortId, typeTitle } from './transactions/tx-format';
import './transactions/transactions.css';

/** One transaction: what it did, how it ended, its sub-transactions and its log, followed live. */
export function TransactionView() {
  const { nav, transactions } = useStores();
  const id = useSlice('nav', (s) => s.place.transactionId);
  const detail = useSlice('transactions', (s) => (s.detail?.transaction_id === id ? s.detail : undefined));
  const state = useSlice('transactions', (s) => s.detailState);
  const fault = useSlice('transactions', (s) => s.detailFault);
  const models = useKnownModels();

  useEffect(() => {
    if (!id) return;
    void transactions.getState().openDetail(id);
    return () => transactions.getState().closeDetail();
  }, [id, transactions]);

  const back = (
    <button type="button" onClick={() => nav.getState().go({ view: 'transactions' })}>
      ‹ All transactions
    </button>
  );
  if (!id) return <Empty title="No transaction chosen.">{back}</Empty>;
  if (!detail) {
    if (state === 'error' && fault) return <FaultNotice fault={fault} onRetry={() => void transactions.getState().openDetail(id)} />;
    return <Loading what="the transaction" />;
  }
  const running = !FINISHED.has(detail.status);
  return (
    <section className="transaction-view" data-testid="transaction-view" data-status={detail.status} aria-labelledby="transaction-title">
      <div className="toolbar">
        {back}
        <h1 id="transaction-title" className="view-title tx-title">
          {/* The model as the engineer knows it (Line Relation); its type on hover. */}
          {detail.action} <span title={detail.model_type}>{typeTitle(models, detail.model_type)}</span>{' '}
          <span className={pillClass(detail.status)}>{detail.status}</span>
        </h1>
        <span className="spacer" />
        {running && (
          <span className="tx-live" role="status">
            <span className="spinner" aria-hidden="true" /> Following live
          </span>
        )}
        <span className="muted" title={detail.transaction_id}>
          Transaction <code>{shortId(detail.transaction_id)}</code>
        </span>
      </div>
      {fault && <FaultNotice fault={fault} onRetry={() => void transactions.getState().openDetail(id)} />}
      {detail.rolled_back === 'Yes' && (
        <div className="tx-rolled-back" role="note">
          <strong>Rolled back: Yes</strong> — the steps this transaction had done were undone; nothing of it was stored.
        </div>
      )}
      {detail.status === 'Fail' && detail.message && (
        <div className="fault" role="alert">
          <strong>{detail.message}</strong>
        </div>
      )}
      <div className="tx-columns">
        <TransactionFacts detail={detail} />
        <SubTransactionList detail={detail} />
      </div>
      <RevertPanel detail={detail} />
      <TransactionLog entries={detail.log} running={running} />
    </section>
  );
}
