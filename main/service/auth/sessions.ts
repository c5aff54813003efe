import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SessionRow, SessionsRepo } from '../store/sessions-repo';
import type { Principal } from './principal';

export interface Session {
  principal: Principal;
  csrfToken: string;
}

/** What a caller needs to set the cookies of its session again: the id travels only in them. */
export interface IssuedSession extends Session {
  sessionId: string;
}

interface CachedSession extends Session {
  lastSeen: number;
  /** When last_seen was last written, or the row last confirmed to exist. */
  storedAt: number;
}

/** A session ends after this long without a request. */
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
/**
 * last_seen is written (and the row confirmed) at most this often per session: a write per
 * request would cost every GET a SQLite commit. A session ended by another process on the same
 * file is therefore noticed within this time.
 */
const STORE_EVERY_MS = 60_000;
const MAX_CACHED = 10_000;
const SWEEP_EVERY = 100;

const digest = (text: string): string => createHash('sha256').update(text).digest('base64');

/**
 * Sessions of server mode, kept in the store (migration 7) so a restart signs nobody out, and
 * ended by logout, by a change to their user, or after 8 idle hours. Only a hash of a session id
 * is stored and cached: neither the file nor a heap dump holds a usable session, except the one
 * shared session per user that Basic callers are given (see `forBasic`), whose id this process
 * keeps to set it in every Basic answer.
 */
export class Sessions {
  private readonly cache = new Map<string, CachedSession>();
  /** userPkid -> the session id Basic answers of that user carry. */
  private readonly basicIds = new Map<string, string>();
  private created = 0;

  constructor(
    private readonly repo: SessionsRepo,
    /** The user as it is now (role, node); undefined when it is gone. */
    private readonly principalOf: (userPkid: string) => Principal | undefined,
    private readonly clock: () => number = Date.now,
  ) {
    repo.deleteIdleBefore(this.clock() - SESSION_IDLE_MS);
  }

  create(principal: Principal, origin: SessionRow['origin'] = 'login'): IssuedSession {
    // Sessions nobody signed out of are swept now and then, not only at the next start.
    if ((this.created += 1) % SWEEP_EVERY === 0) this.repo.deleteIdleBefore(this.clock() - SESSION_IDLE_MS);
    const sessionId = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const now = this.clock();
    const idHash = digest(sessionId);
    this.repo.insert({ id_hash: idHash, user_pkid: principal.pkid, csrf_token: csrfToken, origin, created_ms: now, last_seen_ms: now });
    this.remember(idHash, { principal, csrfToken, lastSeen: now, storedAt: now });
    return { sessionId, csrfToken, principal };
  }

  find(sessionId: string): Session | undefined {
    const idHash = digest(sessionId);
    const now = this.clock();
    const session = this.cache.get(idHash) ?? this.load(idHash);
    if (!session) return undefined;
    if (now - session.lastSeen > SESSION_IDLE_MS) {
      this.drop(idHash);
      return undefined;
    }
    session.lastSeen = now;
    if (now - session.storedAt > STORE_EVERY_MS) {
      if (!this.repo.touch(idHash, now)) {
        this.cache.delete(idHash);
        return undefined;
      }
      session.storedAt = now;
    }
    return session;
  }

  /**
   * The session whose cookies a Basic answer sets (the spec's Authentication, point 2). One per
   * user and process, made on that user's first Basic request: a script sending Basic on every
   * call would otherwise leave a stored session behind per call. Everyone it is shared with
   * already holds the user's password. Signing out of it ends it; the next Basic call makes another.
   */
  forBasic(principal: Principal): IssuedSession {
    const known = this.basicIds.get(principal.pkid);
    const session = known === undefined ? undefined : this.find(known);
    if (known !== undefined && session && session.principal.pkid === principal.pkid) return { ...session, sessionId: known };
    if (this.basicIds.size >= MAX_CACHED) this.basicIds.clear();
    const issued = this.create(principal, 'basic');
    this.basicIds.set(principal.pkid, issued.sessionId);
    return issued;
  }

  end(sessionId: string): void {
    this.drop(digest(sessionId));
  }

  /** Whether the session still stands (not signed out of, its user unchanged, not idle), without counting as a use. */
  isLive(sessionId: string): boolean {
    const idHash = digest(sessionId);
    const session = this.cache.get(idHash) ?? this.load(idHash);
    return session !== undefined && this.clock() - session.lastSeen <= SESSION_IDLE_MS;
  }

  /** A changed or deleted user keeps no session with its old rights. */
  endAllOf(userPkid: string): void {
    this.repo.deleteAllOf(userPkid);
    this.basicIds.delete(userPkid);
    for (const [key, session] of this.cache) if (session.principal.pkid === userPkid) this.cache.delete(key);
  }

  private load(idHash: string): CachedSession | undefined {
    const row = this.repo.get(idHash);
    if (!row) return undefined;
    const principal = this.principalOf(row.user_pkid);
    if (!principal) {
      this.repo.delete(idHash);
      return undefined;
    }
    const session = { principal, csrfToken: row.csrf_token, lastSeen: row.last_seen_ms, storedAt: row.last_seen_ms };
    this.remember(idHash, session);
    return session;
  }

  private remember(idHash: string, session: CachedSession): void {
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(idHash, session);
  }

  private drop(idHash: string): void {
    this.cache.delete(idHash);
    this.repo.delete(idHash);
  }
}

export function tokensMatch(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Cookie header -> name/value pairs (first wins, as browsers send the most specific first). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // A malformed cookie of some other site or tool is not ours to refuse the request over.
    }
  }
  return cookies;
}

export const COOKIE_ATTRIBUTES = 'HttpOnly; Path=/; SameSite=Lax';

/** The Set-Cookie lines of a session (login answers and every authenticated answer). */
export function sessionCookies(sessionId: string, csrfToken: string): string[] {
  return [`sessionid=${sessionId}; ${COOKIE_ATTRIBUTES}`, `csrftoken=${csrfToken}; ${COOKIE_ATTRIBUTES}`];
}
