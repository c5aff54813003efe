import type { IncomingHttpHeaders } from 'node:http';
import type { Pool } from 'undici';
import type { ApiResponse } from '../service/api-types';
import { secretFor, targetAddress } from './bound-secret';
import type { CredentialVault } from './credential-vault';
import { exchange, poolFor, type Exchanged, type ExchangeRequest, type OutgoingBody } from './remote-exchange';
import { isRetriable, noPasswordFault, remoteAuthFault, remoteFaultOf, RemoteFault } from './remote-faults';
import type { RemoteTarget } from './remote-target';
import { remotePathOf } from './request-target';
import { SessionJar } from './session-jar';

/** One request of a live workspace, as the pipeline hands it over after local authentication. */
export interface ForwardRequest {
  method: string;
  /** Path and query exactly as received; only its path and query are used. */
  url: string;
  headers?: Record<string, string | undefined>;
  body?: string | Uint8Array;
  bodyFile?: string;
}

interface Link {
  target: RemoteTarget;
  pool: Pool;
  jar: SessionJar;
  login?: Promise<void>;
}

/** Request headers a client may pass to the remote; everything else (Host, Authorization, Cookie, Origin...) is the proxy's own business. */
const PASSED_HEADERS = ['accept', 'accept-language', 'content-type', 'range', 'if-none-match', 'if-modified-since', 'x-version'];
/** Answer headers that describe the connection to the remote, or its session with the proxy: never passed on. */
const HELD_BACK = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authenticate',
  'proxy-connection',
  'set-cookie',
  'x-csrftoken',
  'www-authenticate',
  'content-length',
]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const RETRY_DELAYS_MS = [100, 300];

/**
 * The proxy of live workspaces: one keep-alive pool and one session per profile. It signs in
 * with the profile's credentials (a session through /noninteractivelogin/, or Basic), sends the
 * request's path and query to the profile's origin only, sends a GET again after a broken
 * connection (never a write), and answers the remote's own answer unchanged, faults included,
 * apart from the headers of its session with the proxy.
 */
export class RemoteHub {
  private readonly links = new Map<string, Link>();

  constructor(private readonly vault: CredentialVault) {}

  async forward(target: RemoteTarget, request: ForwardRequest): Promise<ApiResponse> {
    const link = this.linkOf(target);
    const method = request.method.toUpperCase();
    const { path, search, dropped } = splitUrl(request.url, target);
    const remotePath = remotePathOf(target, path, search);
    const headers = passedHeaders(request.headers, target);
    const body: OutgoingBody | undefined =
      request.bodyFile !== undefined ? { file: request.bodyFile } : request.body !== undefined ? { bytes: request.body } : undefined;
    // A live answer that succeeded streams on to the client (remote-exchange.ts: memory budgets).
    const answer = await this.authenticated(link, { method, path: remotePath, headers, body, streamOk: true });
    const response = toResponse(answer, target);
    if (dropped || (target.releaseLine === '21.1-or-later' && request.headers?.['x-version'] !== undefined))
      response.headers['x-workstation-note'] =
        `api_version and X-Version were not sent: ${target.name} runs release 21.1 or later, which refuses them.`;
    return response;
  }

  /** A raw exchange through the profile's pool, signed in as the caller says (the connection test). */
  async send(
    target: RemoteTarget,
    request: { method: string; path: string; headers: Record<string, string>; body?: string },
  ): Promise<Exchanged> {
    return exchange(this.linkOf(target).pool, target, {
      ...request,
      path: `${target.basePath}${request.path}`,
      body: request.body === undefined ? undefined : { bytes: request.body },
    });
  }

  /** A deleted or changed profile: its pool is closed and its session forgotten. */
  forget(profileId: string): void {
    const link = this.links.get(profileId);
    if (!link) return;
    this.links.delete(profileId);
    void link.pool.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    const pools = [...this.links.values()].map((link) => link.pool.destroy().catch(() => undefined));
    this.links.clear();
    await Promise.all(pools);
  }

  private linkOf(target: RemoteTarget): Link {
    const known = this.links.get(target.id);
    if (known && known.target.version === target.version) return known;
    if (known) this.forget(target.id);
    const link: Link = { target, pool: poolFor(target), jar: new SessionJar() };
    this.links.set(target.id, link);
    return link;
  }

  /** Sends with the profile's credentials; a session that expired is opened again and the request sent once more (the remote refused it, so it was not made). */
  private async authenticated(link: Link, request: ExchangeRequest): Promise<Exchanged> {
    const { target } = link;
    // Only a password entered for this very address and user (bound-secret.ts).
    const password = secretFor(this.vault, targetAddress(target));
    if (password === undefined) throw noPasswordFault(target);
    if (target.authMode === 'basic') {
      const answer = await this.withRetries(link, {
        ...request,
        headers: { ...request.headers, authorization: basicOf(target.username, password) },
      });
      if (answer.status === 401) throw drained(answer, remoteAuthFault(target, 401));
      return answer;
    }
    let refused: string | undefined;
    for (let attempt = 0; ; attempt += 1) {
      await this.signIn(link, password, refused);
      const cookie = link.jar.cookieHeader();
      const headers: Record<string, string> = { ...request.headers, cookie };
      const token = link.jar.csrfToken;
      if (WRITES.has(request.method) && token !== undefined) headers['x-csrftoken'] = token;
      const answer = await this.withRetries(link, { ...request, headers });
      link.jar.absorb(answer.headers);
      if (!sessionRefused(answer)) return answer;
      if (attempt > 0) throw drained(answer, remoteAuthFault(target, answer.status));
      refused = cookie;
      answer.stream?.destroy();
    }
  }

  /**
   * Signs in unless the jar holds a session other than the one the remote just refused: of many
   * requests refused at once, the first signs in again and the others use its new session.
   */
  private async signIn(link: Link, password: string, refusedCookie: string | undefined): Promise<void> {
    if (link.jar.signedIn && link.jar.cookieHeader() !== refusedCookie) return;
    if (!link.login) {
      link.login = this.login(link, password).finally(() => {
        link.login = undefined;
      });
    }
    await link.login;
  }

  private async login(link: Link, password: string): Promise<void> {
    const { target } = link;
    link.jar.clear();
    const answer = await this.guarded(link, 'POST', () =>
      exchange(link.pool, target, {
        method: 'POST',
        path: `${target.basePath}/noninteractivelogin/`,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: { bytes: JSON.stringify({ username: target.username, password }) },
      }),
    );
    answer.stream?.destroy();
    if (answer.status === 401 || answer.status === 403) throw remoteAuthFault(target, answer.status);
    if (answer.status !== 200)
      throw new RemoteFault(
        502,
        'remote-auth',
        `${target.name} answered the sign-in with HTTP ${answer.status}: check the profile's base URL (it must be the deployment's address, without /api/), or choose Basic sign-in.`,
      );
    link.jar.absorb(answer.headers);
    if (!link.jar.signedIn)
      throw new RemoteFault(
        502,
        'remote-auth',
        `${target.name} signed user ${target.username} in but sent no session cookie: choose Basic sign-in for this profile.`,
      );
  }

  /** GETs are sent again after a broken or refused connection, a few times within their deadline; writes never. */
  private async withRetries(link: Link, request: ExchangeRequest): Promise<Exchanged> {
    const retries = IDEMPOTENT.has(request.method) ? RETRY_DELAYS_MS : [];
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.guarded(link, request.method, () => exchange(link.pool, link.target, request));
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause ?? error;
        if (attempt >= retries.length || !isRetriable(cause)) throw error;
        await new Promise((done) => setTimeout(done, retries[attempt]));
      }
    }
  }

  /** Network errors become the documented faults; the original error rides along as `cause` for the retry decision. */
  private async guarded(link: Link, method: string, run: () => Promise<Exchanged>): Promise<Exchanged> {
    try {
      return await run();
    } catch (error) {
      const fault = remoteFaultOf(error, link.target, { sent: true, write: !IDEMPOTENT.has(method) });
      if (fault !== error) Object.defineProperty(fault, 'cause', { value: error, enumerable: false });
      throw fault;
    }
  }
}

function basicOf(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** A session the remote no longer knows: 401, or a CSRF refusal of a token it replaced. */
function sessionRefused(answer: Exchanged): boolean {
  if (answer.status === 401) return true;
  if (answer.status !== 403 || answer.text === undefined) return false;
  return /"code"\s*:\s*"csrf-failed"/.test(answer.text.toString('utf8'));
}

function drained(answer: Exchanged, fault: RemoteFault): RemoteFault {
  answer.stream?.destroy();
  return fault;
}

/** The request's path and query (never a host); api_version dropped for a remote from 21.1 on. */
function splitUrl(url: string, target: RemoteTarget): { path: string; search: string; dropped: boolean } {
  if (!url.startsWith('/') || url.startsWith('//')) {
    return { path: '', search: '', dropped: false };
  }
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const query = mark < 0 ? '' : url.slice(mark + 1);
  if (target.releaseLine !== '21.1-or-later' || !/(^|&)api_version=/.test(query))
    return { path, search: query === '' ? '' : `?${query}`, dropped: false };
  const kept = query.split('&').filter((pair) => !pair.startsWith('api_version='));
  return { path, search: kept.length === 0 ? '' : `?${kept.join('&')}`, dropped: true };
}

function passedHeaders(headers: ForwardRequest['headers'], target: RemoteTarget): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = headers?.[name];
    if (value === undefined) continue;
    if (name === 'x-version' && target.releaseLine === '21.1-or-later') continue;
    passed[name] = value;
  }
  return passed;
}

function toResponse(answer: Exchanged, target: RemoteTarget): ApiResponse {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(answer.headers as IncomingHttpHeaders)) {
    if (value === undefined || HELD_BACK.has(name)) continue;
    headers[name] = value;
  }
  headers['x-workstation-workspace'] = target.name;
  if (answer.stream) {
    const length = answer.headers['content-length'];
    if (typeof length === 'string') headers['content-length'] = length;
    return { status: answer.status, headers, body: '', bodyStream: answer.stream };
  }
  return { status: answer.status, headers, body: answer.text ?? '' };
}
