import { useSlice, useStores } from '../store/stores';

/** Connection state and the transactions this window started that are still running. */
export function StatusLine() {
  const { nav } = useStores();
  const connection = useSlice('status', (s) => s.connection);
  const running = useSlice('status', (s) => s.running);
  const last = useSlice('status', (s) => s.lastFinished);
  const current = useSlice('workspace', (s) => s.current);
  const list = Object.values(running);
  const label = { unknown: 'Connecting…', connected: 'Connected to the local service', unreachable: 'Service unreachable' }[connection];
  return (
    // The footer stays the page's one contentinfo landmark; the live region is inside it (a footer may not take role="status").
    <footer className="status-line">
      <div className="status-items" role="status" aria-live="polite">
        <span className={`connection ${connection}`}>● {label}</span>
        {current !== 'Local' && <span data-testid="live-workspace">Live on {current}: changes go to that deployment</span>}
        <span data-testid="running-transactions">
          {list.length === 0
            ? 'No transaction running'
            : `${list.length} running: ${list.map((t) => `${t.label} (${t.status})`).join(', ')}`}
        </span>
        {last && (
          <button type="button" className="link" onClick={() => nav.getState().go({ view: 'transaction', transactionId: last.id })}>
            Last: {last.label}, {last.status}
          </button>
        )}
      </div>
    </footer>
  );
}
