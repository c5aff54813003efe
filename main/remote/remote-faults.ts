import { ApiError } from '../service/errors';
import type { RemoteTarget } from './remote-target';

/**
 * Network failures of a live workspace, in the fault shape of decisions.md with their own codes.
 * None is a 401: the local session is fine, and a 401 would send the app to its sign-in page.
 * The messages name the deployment and say what to do; they never hold a password or a header.
 */
/** `remote-bad-answer`: an answer that is not what the API gives (a proxy's page, cut-off JSON...): main/remote/pull-pages.ts. */
export type RemoteFaultCode = 'remote-unreachable' | 'remote-timeout' | 'remote-tls' | 'remote-auth' | 'remote-bad-answer';

export class RemoteFault extends ApiError {
  constructor(
    httpCode: number,
    readonly remoteCode: RemoteFaultCode,
    message: string,
  ) {
    super(httpCode, remoteCode, message);
  }
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** The error's own code, or that of its cause (undici wraps socket errors). */
export function errorCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'UND_ERR_SOCKET'
    ? 'UND_ERR_SOCKET'
    : undefined;
}

export function isTimeout(error: unknown): boolean {
  const code = errorCodeOf(error);
  return (code !== undefined && TIMEOUT_CODES.has(code)) || (error instanceof Error && error.name === 'TimeoutError');
}

/** Errors a GET may be sent again after: the request did not get an answer, and sending it twice changes nothing. */
export function isRetriable(error: unknown): boolean {
  const code = errorCodeOf(error);
  return code !== undefined && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED'].includes(code);
}

export function tlsProblemOf(error: unknown): string | undefined {
  const code = errorCodeOf(error);
  if (code === undefined) return undefined;
  if (TLS_CODES.has(code) || code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS')) return code;
  return undefined;
}

export function tlsAdvice(problem: string, target: RemoteTarget): string {
  if (/SELF_SIGNED|UNABLE_TO|UNTRUSTED|ISSUER/.test(problem)) {
    return target.caPem
      ? `the certificate of ${target.origin} is not signed by the CA certificate in profile ${target.name} (${problem}): ask the deployment's administrator for the CA that signed it`
      : `the certificate of ${target.origin} is signed by a CA this computer does not trust (${problem}): paste that CA's certificate (PEM) into profile ${target.name}`;
  }
  if (/EXPIRED|NOT_YET_VALID/.test(problem))
    return `the certificate of ${target.origin} is out of date (${problem}): check this computer's clock, then ask the deployment's administrator to renew it`;
  if (/ALTNAME/.test(problem))
    return `the certificate of ${target.origin} is for another host name (${problem}): use the host name the certificate names in the base URL`;
  return `the TLS handshake with ${target.origin} failed (${problem}): check that the base URL's scheme and port are those of the deployment`;
}

/** Any failure of the exchange, as the fault a caller of a live workspace gets. */
export function remoteFaultOf(error: unknown, target: RemoteTarget, phase: { sent: boolean; write: boolean }): ApiError {
  if (error instanceof ApiError) return error;
  const tls = tlsProblemOf(error);
  if (tls) return new RemoteFault(502, 'remote-tls', `Cannot open a secure connection to ${target.name}: ${tlsAdvice(tls, target)}.`);
  const unsure =
    phase.sent && phase.write ? ' The change may or may not have been made there: look at its transactions before sending it again.' : '';
  if (isTimeout(error)) {
    return new RemoteFault(
      504,
      'remote-timeout',
      `${target.name} (${target.origin}) did not answer in time.${unsure || " Try again; if it keeps happening, check the network or raise the profile's timeouts."}`,
    );
  }
  const code = errorCodeOf(error);
  if (code === 'ECONNREFUSED')
    return new RemoteFault(
      502,
      'remote-unreachable',
      `${target.name} (${target.origin}) refused the connection: check the base URL's host and port, and that the deployment is running.`,
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new RemoteFault(
      502,
      'remote-unreachable',
      `The host of ${target.name} (${target.origin}) is not known here: check the base URL and this computer's network (VPN, DNS).`,
    );
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return new RemoteFault(
      502,
      'remote-unreachable',
      `There is no network route to ${target.name} (${target.origin}): check the network or VPN.`,
    );
  return new RemoteFault(
    502,
    'remote-unreachable',
    `The connection to ${target.name} (${target.origin}) broke off${code ? ` (${code})` : ''}.${unsure || ' Try again.'}`,
  );
}

export function remoteAuthFault(target: RemoteTarget, status: number): RemoteFault {
  const what = status === 403 ? 'refused access to' : 'did not accept the user name and password of';
  return new RemoteFault(
    502,
    'remote-auth',
    `${target.name} ${what} user ${target.username} (HTTP ${status}): correct them in profile ${target.name}, or ask the deployment's administrator.`,
  );
}

export function noPasswordFault(target: RemoteTarget): RemoteFault {
  return new RemoteFault(
    502,
    'remote-auth',
    `This workstation holds no password for profile ${target.name}: enter it again (passwords of server mode are kept only while it runs).`,
  );
}
