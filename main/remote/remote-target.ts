import type { ReleaseLine } from '../service/contract/workstation-api';
import type { RemoteProfileRow } from '../service/store/remote-profiles-repo';

/** A remote profile as the proxy uses it: where, how to sign in, how long to wait. */
export interface RemoteTarget {
  id: string;
  name: string;
  /** Origin only (scheme, host, port): the one place the proxy ever connects to. */
  origin: string;
  /** The base URL's path without its trailing slash ('' for none), put before every request path. */
  basePath: string;
  username: string;
  authMode: 'session' | 'basic';
  caPem: string | null;
  connectMs: number;
  responseMs: number;
  idleMs: number;
  releaseLine: ReleaseLine | null;
  /** Changes whenever the profile does: a pool made for an older version is closed. */
  version: string;
}

/** From release text: 21.1 and later refuse api_version (spec, Versioning 2). */
export function releaseLineOf(release: string): ReleaseLine {
  const [major = 0, minor = 0] = release.split('.').map((part) => Number(part));
  return major > 21 || (major === 21 && minor >= 1) ? '21.1-or-later' : 'before-21.1';
}

export function effectiveReleaseLine(row: Pick<RemoteProfileRow, 'release' | 'detected_release'>): ReleaseLine | null {
  return row.release !== null ? releaseLineOf(row.release) : row.detected_release;
}

export function targetOf(row: RemoteProfileRow): RemoteTarget {
  const url = new URL(row.base_url);
  return {
    id: row.pkid,
    name: row.name,
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ''),
    username: row.username,
    authMode: row.auth_mode,
    caPem: row.ca_pem,
    connectMs: row.connect_timeout_ms,
    responseMs: row.response_timeout_ms,
    idleMs: row.idle_timeout_ms,
    releaseLine: effectiveReleaseLine(row),
    version: `${row.updated_at}|${row.base_url}|${row.ca_pem ?? ''}|${row.connect_timeout_ms}|${row.response_timeout_ms}|${row.idle_timeout_ms}|${row.auth_mode}|${row.username}`,
  };
}
