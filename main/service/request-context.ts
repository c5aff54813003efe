import type { ApiRequest, Json } from './api-types';
import type { Principal } from './auth/principal';
import { ApiError } from './errors';
import { assertJsonDepth, assertNoPrototypeKeys } from './json-depth';

/** One parsed request on its way through the routes. */
export interface RequestContext {
  request: ApiRequest;
  method: string;
  path: string;
  query: URLSearchParams;
  principal: Principal;
  /** Dot path of the caller's node: the top of what it may reach. */
  callerPath: string;
  /** Set when a session cookie (not Basic) authenticated the call: writes then need CSRF. */
  viaSession: boolean;
  /** The schema version device models answer with, from api_version / X-Version. */
  deviceSchemaVersion: string;
  requestId: string;
}

/** `traversal=up`: a read that may also reach the caller's ancestors. */
export const readsUp = (ctx: RequestContext): boolean => ctx.query.get('traversal') === 'up';

export function header(ctx: RequestContext, name: string): string | undefined {
  return ctx.request.headers?.[name];
}

/** The JSON body; malformed or too deeply nested JSON is a 400 that says what is wrong. */
export function jsonBody(ctx: RequestContext): Json | undefined {
  const raw = ctx.request.body;
  if (raw === undefined) return undefined;
  const text = typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8');
  if (text.trim() === '') return undefined;
  assertJsonDepth(text);
  let parsed: Json;
  try {
    parsed = JSON.parse(text) as Json;
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unreadable';
    throw new ApiError(400, 'malformed-json', `The request body is not valid JSON: ${reason}.`);
  }
  assertNoPrototypeKeys(parsed);
  return parsed;
}
