import { isJsonObject, type ApiRequest, type ApiResponse } from '../api-types';
import { ApiError, MethodNotAllowed } from '../errors';
import { assertJsonDepth } from '../json-depth';
import { json } from '../responses';
import type { Authenticator } from './authenticator';
import { COOKIE_ATTRIBUTES, parseCookies, sessionCookies, tokensMatch, type Sessions } from './sessions';

/** Paths outside /api/ that the service answers itself. */
export const SESSION_PATHS = ['/noninteractivelogin/', '/logout/'];

/** The login body: JSON only (the pipeline refused any other type before the body was read). */
function credentialsOf(request: ApiRequest): { username: string; password: string } {
  const raw =
    request.body === undefined ? '' : typeof request.body === 'string' ? request.body : Buffer.from(request.body).toString('utf8');
  let fields: Record<string, unknown> = {};
  assertJsonDepth(raw);
  try {
    const parsed: unknown = raw.trim() === '' ? {} : JSON.parse(raw);
    if (isJsonObject(parsed)) fields = parsed;
  } catch {
    throw new ApiError(400, 'malformed-json', 'The login body is not valid JSON: send {"username": ..., "password": ...}.');
  }
  const { username, password } = fields;
  if (typeof username !== 'string' || typeof password !== 'string' || username === '') {
    throw new ApiError(400, 'validation-failed', 'A login needs a username and a password.', [
      { field: typeof username === 'string' && username !== '' ? 'password' : 'username', message: 'is required' },
    ]);
  }
  return { username, password };
}

/**
 * `POST /noninteractivelogin/` opens a session: `sessionid` and `csrftoken` cookies, and the
 * token in `X-CSRFToken` for the page to echo on its writes. `POST /logout/` ends it.
 */
export async function handleSessionRoute(
  request: ApiRequest,
  path: string,
  authenticator: Authenticator,
  sessions: Sessions,
): Promise<ApiResponse> {
  if (request.method.toUpperCase() !== 'POST') {
    throw new MethodNotAllowed(`${path} takes POST only.`, ['POST']);
  }
  if (path === '/logout/') return logout(request, sessions);
  const { username, password } = credentialsOf(request);
  const principal = await authenticator.login(username, password, request.remoteAddress ?? 'local');
  const { sessionId, csrfToken } = sessions.create(principal);
  return json(
    200,
    { success: true, username: principal.username, role: principal.role },
    { 'set-cookie': sessionCookies(sessionId, csrfToken), 'x-csrftoken': csrfToken },
  );
}

function logout(request: ApiRequest, sessions: Sessions): ApiResponse {
  const sessionId = parseCookies(request.headers?.cookie).get('sessionid');
  const session = sessionId ? sessions.find(sessionId) : undefined;
  if (sessionId && session) {
    // Ending a session is a write like any other: a cross-site form must not sign a user out.
    if (!tokensMatch(session.csrfToken, request.headers?.['x-csrftoken'])) {
      throw new ApiError(403, 'csrf-failed', 'CSRF check failed: send the X-CSRFToken header the login answered with.');
    }
    sessions.end(sessionId);
  }
  return json(
    200,
    { success: true },
    {
      'set-cookie': [`sessionid=; Max-Age=0; ${COOKIE_ATTRIBUTES}`, `csrftoken=; Max-Age=0; ${COOKIE_ATTRIBUTES}`],
    },
  );
}
