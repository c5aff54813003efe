import { useEffect } from 'react';
import { FaultNotice } from '../components/FaultNotice';
import { useSlice, useStores } from '../store/stores';
import { TransactionFilterBar } from './transactions/TransactionFilterBar';
import { TransactionTable } from './transactions/TransactionTable';
import './transactions/transactions.css';

/**
 * The transactions of the selected node and below, newest first. The list refreshes itself while
 * anything in it runs, and when a transaction this window follows has finished.
 */
export function TransactionsView() {
  const { transactions, status } = useStores();
  const selected = useSlice('hierarchy', (s) => s.selected);
  const home = useSlice('session', (s) => s.user?.hierarchy_pkid);
  const nodePath = useSlice('hierarchy', (s) => (s.selected ? s.nodes[s.selected]?.path : undefined));
  const hierarchy = selected ?? home;
  const listState = useSlice('transactions', (s) => s.listState);
  const fault = useSlice('transactions', (s) => s.listFault);
  const rows = useSlice('transactions', (s) => s.rows);

  useEffect(() => {
    if (hierarchy) void transactions.getState().loadList(hierarchy);
    return () => transactions.getState().stopList();
  }, [hierarchy, transactions]);

  useEffect(
    () =>
      status.subscribe((state, previous) => {
        if (state.lastFinished !== previous.lastFinished) void transactions.getState().refreshList();
      }),
    [status, transactions],
  );

  return (
    <section className="transactions-view" aria-labelledby="transactions-title">
      <h1 id="transactions-title" className="view-title">
        Transactions {nodePath && <span className="muted">at {nodePath} and below</span>}
      </h1>
      <TransactionFilterBar />
      {fault && (listState === 'error' || rows.length > 0) && (
        <FaultNotice fault={fault} onRetry={() => void transactions.getState().refreshList()} />
      )}
      <TransactionTable />
    </section>
  );
}
