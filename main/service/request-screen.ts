import { statSync } from 'node:fs';
import type { ApiRequest } from './api-types';
import { ApiError } from './errors';

/**
 * The checks a request passes on its line and headers alone, so the HTTP host can make them
 * before it reads a byte of the body (decisions.md, Bulk load sheets: request bodies, browser
 * writes). The pipeline makes them again on every request, whichever door it came through.
 */

/** Uploaded spreadsheets may be this large (decisions.md: 50 MB). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
export const MAX_JSON_BODY = 10 * 1024 * 1024;
/** A login is a user name and a password. */
export const MAX_LOGIN_BODY = 64 * 1024;

export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const isUploadPath = (pathname: string): boolean => /^\/api\/uploadfiles\/?$/.test(pathname);

/** How large a request body may be on a path: uploads take spreadsheets, logins little, the rest JSON. */
export function bodyLimitFor(pathname: string): number {
  if (isUploadPath(pathname)) return MAX_UPLOAD_BYTES;
  return pathname.startsWith('/api/') || pathname.startsWith('/workstation/') ? MAX_JSON_BODY : MAX_LOGIN_BODY;
}

/** What is known of a body: whether there is one, and its size when known (not for chunked bodies still to come). */
export interface BodyFacts {
  present: boolean;
  size: number | undefined;
}

/** From the headers alone: a request without Content-Length or Transfer-Encoding has no body (RFC 9112, 6.3). */
export function declaredBody(headers: ApiRequest['headers']): BodyFacts {
  const length = headers?.['content-length'];
  if (headers?.['transfer-encoding'] !== undefined) return { present: true, size: undefined };
  const size = length === undefined ? 0 : Number(length);
  return { present: size !== 0, size: Number.isFinite(size) ? size : undefined };
}

/** From the request as handed to `handle()`: the bytes, or the file the host spooled them to. */
export function receivedBody(request: ApiRequest): BodyFacts {
  if (request.bodyFile !== undefined) {
    const size = statSync(request.bodyFile).size;
    return { present: size > 0, size };
  }
  const { body } = request;
  const size = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  return { present: size > 0, size };
}

export function assertBodySize(pathname: string, body: BodyFacts): void {
  const limit = bodyLimitFor(pathname);
  if (body.size !== undefined && body.size > limit) {
    throw new ApiError(413, 'too-large', `The request body is larger than the ${limit / 1024 / 1024} MB limit.`);
  }
}

const mediaTypeOf = (headers: ApiRequest['headers']): string => (headers?.['content-type'] ?? '').split(';')[0].trim().toLowerCase();

/**
 * JSON endpoints take application/json only and uploads multipart/form-data only: the types a
 * cross-site form can send (text/plain, form encoding) never reach a route. A request without a
 * body needs no type.
 */
export function assertContentType(pathname: string, headers: ApiRequest['headers'], body: BodyFacts): void {
  if (!body.present) return;
  const type = mediaTypeOf(headers);
  if (isUploadPath(pathname)) {
    if (type === 'multipart/form-data') return;
    throw new ApiError(
      415,
      'unsupported-media-type',
      'An upload is a multipart/form-data body with the file in a part named uploadedfile.',
    );
  }
  if (type === 'application/json') return;
  throw new ApiError(
    415,
    'unsupported-media-type',
    `Send the body as JSON with Content-Type: application/json, not ${type === '' ? 'no type' : type}.`,
  );
}

/**
 * A browser names the page that made a request in `Origin`. A write (or a login) from any page
 * but the service's own is refused, whatever credentials the browser adds by itself (a session
 * cookie, Basic credentials it cached). Scripts, curl and the desktop window send no Origin.
 */
export function assertSameOrigin(method: string, headers: ApiRequest['headers']): void {
  const origin = headers?.origin;
  if (origin === undefined || !WRITE_METHODS.has(method)) return;
  const host = headers?.host;
  if (host !== undefined && (origin === `http://${host}` || origin === `https://${host}`)) return;
  throw new ApiError(403, 'csrf-failed', "CSRF check failed: a write must come from the workstation's own pages.");
}
