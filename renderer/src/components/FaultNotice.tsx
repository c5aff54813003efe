import type { ApiFault } from '../api/fault';

/**
 * Whether trying the same call again can help: the service was unreachable (status 0) or failed
 * (5xx). A refusal (401, 403), a missing instance (404) or a conflict (409) answers the same
 * again, so offering "Try again" would only mislead; the advice says what to do instead.
 */
export function isRetryable(fault: ApiFault): boolean {
  return fault.status === 0 || fault.status >= 500;
}

interface FaultNoticeProps {
  fault: ApiFault;
  onRetry?: () => void;
  /**
   * The labels of the form the fault answers, by the API's field name: a problem with a labelled
   * field reads "Base URL must be…", as the engineer knows the field, not "base_url: must be…".
   */
  fields?: Readonly<Record<string, string>>;
  /** Said instead of the service's message when every problem is on a labelled field (that message names API fields). */
  summary?: string;
}

/** A fault from the service shown as what happened and what to do; never a blank screen. */
export function FaultNotice({ fault, onRetry, fields, summary }: FaultNoticeProps) {
  const labelled = fields !== undefined && fault.details.length > 0 && fault.details.every((detail) => fields[detail.field] !== undefined);
  return (
    <div className="fault" role="alert" data-fault-code={fault.code}>
      <strong>{labelled && summary ? summary : fault.message}</strong>
      {fault.details.length > 0 && (
        <ul>
          {fault.details.map((detail) => (
            <li key={`${detail.field}:${detail.message}`}>
              {fields?.[detail.field] !== undefined ? (
                `${fields[detail.field]} ${detail.message}`
              ) : (
                <>
                  <code>{detail.field}</code>: {detail.message}
                </>
              )}
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
