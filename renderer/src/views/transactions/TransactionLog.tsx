import type { TransactionLogEntry } from '../../../../main/service/contract/transaction-api';
import { formatClock } from './tx-format';

/** The transaction's log, oldest first (the store orders it): each step's message with its severity and time. */
export function TransactionLog({ entries: ordered, running }: { entries: TransactionLogEntry[]; running: boolean }) {
  return (
    <div className="card tx-log">
      <h2>
        Log <span className="muted">({ordered.length})</span>
      </h2>
      {ordered.length === 0 ? (
        <p className="muted">{running ? 'Waiting for the first step…' : 'This transaction wrote no log.'}</p>
      ) : (
        <ol className="tx-log-list" aria-live={running ? 'polite' : 'off'}>
          {ordered.map((entry) => (
            <li key={entry.log_id} data-testid="log-entry" data-severity={entry.severity} className={`tx-log-entry log-${entry.severity}`}>
              <span className={`severity severity-${entry.severity}`}>{entry.severity}</span>
              <time dateTime={entry.time}>{formatClock(entry.time)}</time>
              <span className="tx-log-message">{entry.message}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
