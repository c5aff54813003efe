import type { ApiFault } from '../api/fault';

/**
 * Whether trying the same call again can help: the service was unreachable (status 0) or failed
 * (5xx). A refusal (401, 403), a missing instance (404) or a conflict (409) answers the same
 * again, so offering "Try again" would only mislead; the advice says what to do instead.
 */
export function isRetryable(fault: ApiFault): boolean {
  return fault.status === 0 || fault.status >= 500;
}

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
      {onRetry && isRetryable(fault) && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
