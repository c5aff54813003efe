import { ApiError } from '../service/errors';
import type { RemoteTarget } from './remote-target';

/**
 * The path a forwarded request takes on the remote: the profile's base path, then the /api/
 * path of the request, then its query. Only the request's path and query are ever used, never
 * a scheme, host or port from it, and a path that could climb out of /api/ on the remote (dot
 * segments, encoded slashes or dots, backslashes, empty segments) is refused. The pool the
 * request goes through is bound to the profile's origin, so no request can reach another host.
 */
export function remotePathOf(target: RemoteTarget, pathname: string, search: string): string {
  if (!pathname.startsWith('/api/')) throw refused('only /api/ paths are forwarded to a remote deployment');
  if (/%2f|%5c|%2e|%00|\\/i.test(pathname)) throw refused('the path holds an encoded slash, dot or backslash');
  const segments = pathname.split('/').slice(1);
  // A trailing slash leaves one empty last segment; any other empty segment is a `//`.
  if (
    segments.slice(0, -1).some((segment) => segment === '' || segment === '.' || segment === '..') ||
    ['.', '..'].includes(segments[segments.length - 1])
  ) {
    throw refused('the path holds an empty, . or .. segment');
  }
  if (/[^\x21-\x7e]/.test(pathname + search)) throw refused('the path or query holds spaces or characters that must be percent-encoded');
  return `${target.basePath}${pathname}${search}`;
}

const refused = (why: string): ApiError =>
  new ApiError(400, 'bad-parameter', `This request is not forwarded to the remote deployment: ${why}.`, [{ field: 'path', message: why }]);
