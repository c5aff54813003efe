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
 * 405: the method is not one the path takes. The answer carries `Allow` with the methods it
 * does take (RFC 9110, 15.5.6), so a client can tell what to send instead.
 */
export class MethodNotAllowed extends ApiError {
  readonly allow: string[];

  constructor(message: string, allow: readonly string[]) {
    super(405, 'method-not-allowed', message);
    this.allow = [...allow];
  }
}

/**
 * `<METHOD> is not allowed on <path>; use GET or POST.` with `Allow: GET, POST`. `allowed` is
 * the methods in words as the message says them ("GET, PUT or DELETE").
 */
export function methodNotAllowed(ctx: { method: string; path: string }, allowed: string): MethodNotAllowed {
  return new MethodNotAllowed(`${ctx.method} is not allowed on ${ctx.path}; use ${allowed}.`, allowed.split(/,\s*|\s+or\s+/));
}

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
