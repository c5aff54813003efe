/**
 * Errors are data at every boundary: anything the service refuses is an ApiError, which the
 * response layer turns into the fault shape of decisions.md. Anything else is a bug, answered
 * as a masked 500.
 */
import type { Fault, FaultDetail } from './contract/fault';

export type { Fault, FaultDetail };

export class ApiError extends Error {
  constructor(
    readonly httpCode: number,
    readonly code: string,
    message: string,
    readonly details?: FaultDetail[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function faultOf(error: ApiError, transactionId?: string): Fault {
  const fault: Fault = { success: false, http_code: error.httpCode, code: error.code, message: error.message };
  if (error.details && error.details.length > 0) fault.details = error.details;
  if (transactionId) fault.transaction_id = transactionId;
  return fault;
}

export const badParameter = (message: string, field?: string): ApiError =>
  new ApiError(400, 'bad-parameter', message, field ? [{ field, message }] : undefined);

export const notFound = (message: string): ApiError => new ApiError(404, 'not-found', message);

export const conflict = (message: string): ApiError => new ApiError(409, 'conflict', message);

export const permissionDenied = (message: string): ApiError => new ApiError(403, 'permission-denied', `Permission Denied: ${message}`);

/**
 * 429: more heavy work is waiting than the service takes on. The answer carries `Retry-After`, so
 * a client backs off instead of asking again at once (issue 11, fair share).
 */
export class TooBusy extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, 'too-many-requests', message);
  }
}
