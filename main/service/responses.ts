import type { ApiResponse } from './api-types';
import { faultOf, MethodNotAllowed, TooBusy, type ApiError } from './errors';

export const JSON_TYPE = 'application/json; charset=utf-8';

export function json(status: number, body: unknown, headers: Record<string, string | string[]> = {}): ApiResponse {
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body: JSON.stringify(body) };
}

export function html(status: number, body: string): ApiResponse {
  return { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body };
}

export function faultResponse(error: ApiError, transactionId?: string): ApiResponse {
  const headers: Record<string, string> = {};
  if (error.httpCode === 401) headers['www-authenticate'] = 'Basic realm="workstation"';
  if (error instanceof TooBusy) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error instanceof MethodNotAllowed) headers.allow = error.allow.join(', ');
  return json(error.httpCode, faultOf(error, transactionId), headers);
}
