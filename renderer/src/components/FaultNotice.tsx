import type { ApiFault } from '../api/fault';

/** A fault from the service shown as what happened and what to do; never a blank screen. */
export function FaultNotice({ fault, onRetry }: { fault: ApiFault; onRetry?: () => void }) {
  return (
    <div className="fault" role="alert" data-fault-code={fault.code}>
      <strong>{fault.message}</strong>
      {fault.details.length > 0 && (
        <ul>
          {fault.details.map((detail) => (
            <li key={`${detail.field}:${detail.message}`}>
              <code>{detail.field}</code>: {detail.message}
            </li>
          ))}
        </ul>
      )}
      <p className="fault-advice">{fault.advice}</p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
