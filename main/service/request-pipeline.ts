import { createHmac, randomBytes } from 'node:crypto';
import type { ApiRequest, ApiResponse } from './api-types';
import type { Authenticator } from './auth/authenticator';
import type { Principal } from './auth/principal';
import { unreachable } from './auth/access';
import { HierarchyNotFound, wouldBeWithin } from './domain/hierarchy';
import { handleSessionRoute, SESSION_PATHS } from './auth/session-routes';
import { parseCookies, sessionCookies, tokensMatch, type Sessions } from './auth/sessions';
import { ApiError } from './errors';
import { checkFlags } from './list/list-params';
import type { RequestContext } from './request-context';
import { faultResponse, json, JSON_TYPE } from './responses';
import { readKey } from './routes/read-cache';
import { dispatch } from './routes';
import { dispatchWorkstation, WORKSTATION_PREFIX, type WorkstationDeps } from './workstation';
import { forwardLive, liveWorkspaceOf } from './workstation/live-workspace';
import type { RouteDeps } from './routes/deps';
import { deviceSchemaVersionFor } from './schema/versioning';
import {
  assertBodySize,
  assertContentType,
  assertSameOrigin,
  declaredBody,
  receivedBody,
  WRITE_METHODS,
  type BodyFacts,
} from './request-screen';

export { bodyLimitFor, MAX_JSON_BODY } from './request-screen';

interface Caller {
  principal: Principal;
  viaSession: boolean;
  csrfToken: string;
  /** The session whose cookies the answer sets; absent for in-process callers (handleAs). */
  sessionId?: string;
}

/** Who sends a request a door answers itself (`identify`), or why it is refused. */
export type Identified =
  | {
      principal: Principal;
      callerPath: string;
      headers: Record<string, string | string[]>;
      /**
       * Whether the credentials it came with still stand: a session's until it is signed out of
       * (or its user changes); Basic credentials are checked at each request, and a change to
       * their user ends what they opened (event-stream.ts).
       */
      live: () => boolean;
      refusal?: undefined;
    }
  | { refusal: ApiResponse };

export interface PipelineDeps extends RouteDeps {
  authenticator: Authenticator;
  sessions: Sessions;
  /** Remote profiles, the credential vault and the proxy: `/workstation/` and live workspaces. */
  workstation: WorkstationDeps;
  internalError: (error: unknown, reference: string) => void;
}

/** True for the paths the service answers (the HTTP host serves every other from disk). */
export function isServicePath(pathname: string): boolean {
  return pathname.startsWith('/api/') || pathname.startsWith(WORKSTATION_PREFIX) || SESSION_PATHS.includes(pathname);
}

/**
 * One request through the service: authenticate (Basic, session cookie, or the given
 * principal), check CSRF on session writes, pick the API version, dispatch, and turn whatever
 * was refused into the fault shape. A non-ApiError is a bug: masked 500, logged with its id.
 */
export function createPipeline(deps: PipelineDeps) {
  const idPrefix = randomBytes(4).toString('hex');
  const tokenKey = randomBytes(32);
  let requestCount = 0;
  // Basic callers have no session; their token is stable per user and process, so made once.
  const basicTokens = new Map<string, string>();
  const basicToken = (principal: Principal): string => {
    let token = basicTokens.get(principal.pkid);
    if (token === undefined) {
      token = createHmac('sha256', tokenKey).update(principal.pkid).digest('base64url');
      if (basicTokens.size > 10_000) basicTokens.clear();
      basicTokens.set(principal.pkid, token);
    }
    return token;
  };

  async function callerOf(request: ApiRequest): Promise<Caller> {
    const authorization = request.headers?.authorization;
    const sessionId = parseCookies(request.headers?.cookie).get('sessionid');
    const session = sessionId ? deps.sessions.find(sessionId) : undefined;
    if (authorization) {
      const principal = await deps.authenticator.authenticate(authorization, request.remoteAddress);
      // Basic answers set session cookies too (spec, Authentication 2): the caller's own session
      // when its cookie is of the same user, else the user's shared Basic session.
      const issued =
        session && sessionId && session.principal.pkid === principal.pkid ? { ...session, sessionId } : deps.sessions.forBasic(principal);
      return { principal, viaSession: false, csrfToken: issued.csrfToken, sessionId: issued.sessionId };
    }
    if (session && sessionId) return { principal: session.principal, viaSession: true, csrfToken: session.csrfToken, sessionId };
    throw new ApiError(
      401,
      'authentication-required',
      'Authentication required: sign in, or send Basic credentials (user name and password).',
    );
  }

  /**
   * Everything decided before a body is read, in this order: the Origin of a write, the login's
   * body, who calls (401 otherwise), the CSRF token of a session write, the body's size and type.
   * The caller is kept in `seen` as soon as it is known, so a later refusal still carries its token.
   */
  async function screen(request: ApiRequest, body: BodyFacts, callerFor: () => Promise<Caller>, seen: { caller?: Caller }): Promise<URL> {
    const url = new URL(request.url, 'http://workstation.local');
    const method = request.method.toUpperCase();
    assertSameOrigin(method, request.headers);
    if (SESSION_PATHS.includes(url.pathname)) {
      assertBodySize(url.pathname, body);
      assertContentType(url.pathname, request.headers, body);
      return url;
    }
    if (!url.pathname.startsWith('/api/') && !url.pathname.startsWith(WORKSTATION_PREFIX))
      throw new ApiError(404, 'not-found', `No API resource at ${url.pathname}.`);
    const caller = await callerFor();
    seen.caller = caller;
    if (caller.viaSession && WRITE_METHODS.has(method) && !tokensMatch(caller.csrfToken, request.headers?.['x-csrftoken'])) {
      throw new ApiError(403, 'csrf-failed', 'CSRF check failed: send the X-CSRFToken header the login answered with.');
    }
    assertBodySize(url.pathname, body);
    assertContentType(url.pathname, request.headers, body);
    return url;
  }

  /** For the HTTP host: the refusal of a request decided on its headers alone, or undefined to read its body. */
  async function admit(head: ApiRequest): Promise<ApiResponse | undefined> {
    const seen: { caller?: Caller } = {};
    try {
      await screen(head, declaredBody(head.headers), () => callerOf(head), seen);
      return undefined;
    } catch (error) {
      return withToken(faultOf(error, head, `${idPrefix}-head`), seen.caller);
    }
  }

  /**
   * For a door that answers a stream of its own (the HTTP host's event stream): the caller,
   * screened as every request is (Origin, credentials, CSRF), with its node's path and the
   * headers its answer carries (CSRF token, session cookies); else the refusal, in the fault shape.
   */
  async function identify(head: ApiRequest): Promise<Identified> {
    const seen: { caller?: Caller } = {};
    try {
      await screen(head, declaredBody(head.headers), () => callerOf(head), seen);
      const { caller } = seen;
      if (!caller) throw new ApiError(404, 'not-found', `No stream at ${head.url}.`);
      const callerPath = deps.store.nodes.get(caller.principal.hierarchyPkid)?.path ?? caller.principal.hierarchyPkid;
      const sessionId = caller.viaSession ? caller.sessionId : undefined;
      return {
        principal: caller.principal,
        callerPath,
        headers: withToken({ status: 200, headers: {}, body: '' }, caller).headers,
        live: sessionId === undefined ? () => true : () => deps.sessions.isLive(sessionId),
      };
    } catch (error) {
      return { refusal: withToken(faultOf(error, head, `${idPrefix}-head`), seen.caller) };
    }
  }

  async function run(request: ApiRequest, callerFor: () => Promise<Caller>): Promise<ApiResponse> {
    const requestId = `${idPrefix}${(requestCount += 1).toString(16).padStart(4, '0')}`;
    const seen: { caller?: Caller } = {};
    let ctx: RequestContext | undefined;
    try {
      const url = await screen(request, receivedBody(request), callerFor, seen);
      const { caller } = seen;
      if (!caller) return await handleSessionRoute(request, url.pathname, deps.authenticator, deps.sessions);
      const method = request.method.toUpperCase();
      const callerPathOf = (): string => deps.store.nodes.get(caller.principal.hierarchyPkid)?.path ?? caller.principal.hierarchyPkid;
      // A live workspace's /api/ request goes to its remote before anything local (read cache,
      // api_version rules of the local release) can answer it; /workstation/ stays local.
      const live = url.pathname.startsWith('/api/') ? liveWorkspaceOf(request) : undefined;
      if (live !== undefined)
        return withToken(
          await forwardLive(deps.workstation, { principal: caller.principal, callerPath: callerPathOf() }, live, request),
          caller,
        );
      const remembered = method === 'GET' ? rememberedAnswer(request, caller) : undefined;
      if (remembered) return withToken(remembered, caller);
      ctx = {
        request,
        method,
        path: url.pathname,
        query: url.searchParams,
        principal: caller.principal,
        callerPath: callerPathOf(),
        viaSession: caller.viaSession,
        deviceSchemaVersion: deviceSchemaVersionFor(deps.release, url.searchParams.get('api_version'), request.headers?.['x-version']),
        requestId,
      };
      checkFlags(ctx.query);
      if (url.pathname.startsWith(WORKSTATION_PREFIX)) return withToken(await dispatchWorkstation(deps.workstation, ctx), caller);
      checkFormat(ctx);
      const response = await dispatch(deps, ctx);
      const nowait = method === 'GET' && response.status === 200 && /^(true|1)$/i.test(url.searchParams.get('nowait') ?? '');
      return withToken(nowait ? { ...response, status: 202 } : response, caller);
    } catch (error) {
      return withToken(faultOf(ctx ? hideUnreachable(error, ctx) : error, request, requestId), seen.caller);
    }
  }

  /**
   * A repeated instance read answered straight from the read cache: the same caller, URL and
   * version header passed every check when it was stored, and any change since emptied the
   * cache. nowait reads (202) take the full path.
   */
  function rememberedAnswer(request: ApiRequest, caller: Caller): ApiResponse | undefined {
    if (request.url.includes('nowait')) return undefined;
    const body = deps.readCache.get(readKey(caller.principal.pkid, request.headers?.['x-version'], request.url));
    return body === undefined ? undefined : { status: 200, headers: { 'content-type': JSON_TYPE }, body };
  }

  function faultOf(error: unknown, request: ApiRequest, requestId: string): ApiResponse {
    if (error instanceof ApiError) {
      const response = faultResponse(error);
      if (error.httpCode === 401 && request.headers?.['x-requested-with'] === 'XMLHttpRequest') {
        delete response.headers['www-authenticate'];
      }
      return response;
    }
    deps.internalError(error, requestId);
    return json(500, {
      success: false,
      http_code: 500,
      code: 'internal-error',
      message: `The service failed on an internal error; quote reference ${requestId} when you report it.`,
    });
  }

  return {
    admit,
    identify,
    handle: (request: ApiRequest) => run(request, () => callerOf(request)),
    handleAs: (principal: Principal, request: ApiRequest) =>
      run(request, () => Promise.resolve({ principal, viaSession: false, csrfToken: basicToken(principal) })),
  };
}

/**
 * A hierarchy that does not exist is 404 only where it would lie within the caller's reach;
 * elsewhere the answer is the same 403 an existing node there gets, so nobody can list the nodes
 * beside or above its own (decisions.md, Identity and hierarchy).
 */
function hideUnreachable(error: unknown, ctx: RequestContext): unknown {
  if (!(error instanceof HierarchyNotFound) || wouldBeWithin(error.requested, ctx.callerPath)) return error;
  return unreachable(ctx.principal, ctx.callerPath);
}

/**
 * Every authenticated answer carries the caller's CSRF token, and over HTTP the cookies of its
 * session (spec, Authentication 2), beside any cookie of the route's own (fileDownloadToken).
 */
function withToken(response: ApiResponse, caller: Caller | undefined): ApiResponse {
  if (!caller) return response;
  response.headers['x-csrftoken'] = caller.csrfToken;
  if (caller.sessionId !== undefined) {
    const own = response.headers['set-cookie'];
    const cookies = sessionCookies(caller.sessionId, caller.csrfToken);
    response.headers['set-cookie'] = own === undefined ? cookies : [...(Array.isArray(own) ? own : [own]), ...cookies];
  }
  return response;
}

function checkFormat(ctx: RequestContext): void {
  const format = ctx.query.get('format');
  if (format === null || format === 'json' || /\/help\/?$/.test(ctx.path)) return;
  throw new ApiError(400, 'bad-parameter', `format must be json, not '${format}'.`, [{ field: 'format', message: 'must be json' }]);
}
