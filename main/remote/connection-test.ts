import { findHomeNode, type HomeGet } from '../service/contract/home-node';
import type { ConnectionTestResult, ReleaseLine } from '../service/contract/workstation-api';
import { secretFor, targetAddress } from './bound-secret';
import type { CredentialVault } from './credential-vault';
import { errorCodeOf, isTimeout, tlsAdvice, tlsProblemOf } from './remote-faults';
import type { Exchanged } from './remote-exchange';
import type { RemoteHub } from './remote-hub';
import type { RemoteTarget } from './remote-target';
import { SessionJar } from './session-jar';

/** An authenticated GET every deployment of the spec answers without side effects: a one-line list. */
const PROBE = '/api/data/HierarchyNode/?format=json&limit=1';
/** A version of the spec's table: a remote from 21.1 on refuses any api_version. */
const VERSION_PROBE = `${PROBE}&api_version=11.5.1`;

/**
 * "Test connection": signs in with a fresh session (or Basic), makes one authenticated GET and
 * one with api_version, finds where the live tree will start (the remote's /api/whoami/, else
 * the profile's home hierarchy), and says in one sentence what was found and what to do. It
 * never disturbs the live session of the profile.
 */
export async function testConnection(
  hub: RemoteHub,
  vault: CredentialVault,
  target: RemoteTarget,
  entered: string | null,
  home: string | null,
): Promise<ConnectionTestResult> {
  const secure = target.origin.startsWith('https:');
  const result: ConnectionTestResult = {
    success: false,
    verdict: 'unexpected',
    message: '',
    reachable: false,
    tls: { used: secure, ok: null, problem: null },
    credentials: 'not-tried',
    forbidden: false,
    release: { detected: null, entered, message: 'not tested' },
    home: { source: null, hierarchy: home, pkid: null, message: 'not tested' },
    round_trip_ms: null,
  };
  // Never a password entered for another address or user (bound-secret.ts): that one is dropped.
  const password = secretFor(vault, targetAddress(target));
  if (password === undefined) {
    return {
      ...result,
      verdict: 'no-password',
      message: `No password is held for ${target.name}: enter it in the profile, then test again.`,
    };
  }
  try {
    const auth = await signIn(hub, target, password, result);
    if (!auth) return result;
    const answer = await hub.send(target, { method: 'GET', path: PROBE, headers: { accept: 'application/json', ...auth } });
    result.round_trip_ms = Math.round(answer.ms);
    if (judgeCredentials(answer, target, result)) return result;
    const versioned = await hub.send(target, { method: 'GET', path: VERSION_PROBE, headers: { accept: 'application/json', ...auth } });
    result.release = releaseOf(versioned, entered);
    const answered = `${target.name} answers as ${target.username} in ${result.round_trip_ms} ms; ${result.release.message}`;
    const found = await findHomeNode(homeGet(hub, target, auth), home, target.name, `user ${target.username}`);
    if (!found.found) {
      result.home = { source: null, hierarchy: home, pkid: null, message: found.message };
      return { ...result, verdict: 'no-home', message: `${answered}. But ${found.message}` };
    }
    const { node } = found;
    const where =
      node.source === 'whoami'
        ? `its /api/whoami/ places user ${target.username} at ${node.hierarchy}`
        : `the tree starts at the profile's home hierarchy ${node.hierarchy}`;
    result.home = { source: node.source, hierarchy: node.hierarchy, pkid: node.pkid, message: where };
    result.success = true;
    result.verdict = 'ok';
    result.message = `${answered}; ${where}.`;
    return result;
  } catch (error) {
    return networkVerdict(error, target, result);
  }
}

/**
 * The GETs of the home node's search, with the test's own sign-in. A 401 or a 5xx is the remote's
 * trouble, not a missing whoami: it ends the test as an unexpected answer (findHomeNode's contract).
 */
function homeGet(hub: RemoteHub, target: RemoteTarget, auth: Record<string, string>): HomeGet {
  return async (path, query) => {
    const answer = await hub.send(target, {
      method: 'GET',
      path: `${path}?${new URLSearchParams(query).toString()}`,
      headers: { accept: 'application/json', ...auth },
    });
    answer.stream?.destroy();
    if (answer.status === 401 || answer.status >= 500) throw new UnexpectedAnswer(path, answer.status);
    const text = answer.text?.toString('utf8') ?? '';
    let body: unknown;
    try {
      body = text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch {
      body = undefined;
    }
    return { status: answer.status, body };
  };
}

class UnexpectedAnswer extends Error {
  constructor(
    readonly path: string,
    readonly status: number,
  ) {
    super(`HTTP ${status} to ${path}`);
  }
}

async function signIn(
  hub: RemoteHub,
  target: RemoteTarget,
  password: string,
  result: ConnectionTestResult,
): Promise<Record<string, string> | undefined> {
  if (target.authMode === 'basic') return { authorization: `Basic ${Buffer.from(`${target.username}:${password}`).toString('base64')}` };
  const login = await hub.send(target, {
    method: 'POST',
    path: '/noninteractivelogin/',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ username: target.username, password }),
  });
  login.stream?.destroy();
  markReached(result);
  if (judgeCredentials(login, target, result)) return undefined;
  if (login.status !== 200) {
    Object.assign(result, {
      verdict: 'unexpected',
      message: `${target.name} answered the sign-in with HTTP ${login.status}: check that the base URL is the deployment's address (without /api/), or choose Basic sign-in.`,
    });
    return undefined;
  }
  const jar = new SessionJar();
  jar.absorb(login.headers);
  return { cookie: jar.cookieHeader() };
}

function markReached(result: ConnectionTestResult): void {
  result.reachable = true;
  if (result.tls.used) result.tls.ok = true;
}

/** True when the answer ends the test: wrong credentials or forbidden. */
function judgeCredentials(answer: Exchanged, target: RemoteTarget, result: ConnectionTestResult): boolean {
  markReached(result);
  answer.stream?.destroy();
  if (answer.status === 401) {
    Object.assign(result, {
      credentials: 'refused',
      verdict: 'wrong-credentials',
      message: `${target.name} is reachable but does not accept user ${target.username} with this password: correct them in the profile.`,
    });
    return true;
  }
  result.credentials = 'accepted';
  if (answer.status === 403) {
    Object.assign(result, {
      forbidden: true,
      verdict: 'forbidden',
      message: `${target.name} knows user ${target.username} but refuses it API access (HTTP 403): ask the deployment's administrator for a role that may use the API.`,
    });
    return true;
  }
  return false;
}

function releaseOf(answer: Exchanged, entered: string | null): ConnectionTestResult['release'] {
  const text = answer.text?.toString('utf8') ?? '';
  const refused =
    answer.status === 400 && /api-version-not-supported|not (be )?sent|"field"\s*:\s*"(api_version|X-Version)"[^}]*21\.1/i.test(text);
  const detected: ReleaseLine = refused ? '21.1-or-later' : 'before-21.1';
  const found = refused ? 'it runs release 21.1 or later (it refuses api_version)' : 'it runs a release before 21.1 (it takes api_version)';
  if (entered === null) return { detected, entered, message: found };
  const enteredLine: ReleaseLine =
    Number(entered.split('.')[0]) > 21 || (Number(entered.split('.')[0]) === 21 && Number(entered.split('.')[1] ?? 0) >= 1)
      ? '21.1-or-later'
      : 'before-21.1';
  const agrees = enteredLine === detected;
  return {
    detected,
    entered,
    message: agrees
      ? `${found}, as entered (${entered})`
      : `${found}, but ${entered} was entered: correct the profile's release or clear it`,
  };
}

function networkVerdict(error: unknown, target: RemoteTarget, result: ConnectionTestResult): ConnectionTestResult {
  if (error instanceof UnexpectedAnswer) {
    return {
      ...result,
      verdict: 'unexpected',
      message: `${target.name} answered ${error.path} with HTTP ${error.status} while looking for where ${target.username} sits: try again; if it stays, ask the deployment's administrator.`,
    };
  }
  const tls = tlsProblemOf(error);
  if (tls) {
    result.reachable = true;
    result.tls = { used: true, ok: false, problem: tls };
    return { ...result, verdict: 'tls', message: `${target.name} is reachable but ${tlsAdvice(tls, target)}.` };
  }
  if (isTimeout(error)) {
    return {
      ...result,
      verdict: 'timeout',
      message: `${target.name} (${target.origin}) did not answer within ${target.connectMs} ms to connect or ${target.responseMs} ms to answer: check the VPN or network, or raise the profile's timeouts.`,
    };
  }
  const code = errorCodeOf(error) ?? 'no answer';
  const advice =
    code === 'ECONNREFUSED'
      ? 'nothing listens at that host and port: check the base URL and that the deployment is running'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'the host name is not known here: check the base URL and the VPN or DNS'
        : 'check the base URL and the network';
  return { ...result, verdict: 'unreachable', message: `Cannot reach ${target.name} at ${target.origin} (${code}): ${advice}.` };
}
