import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Principal } from './principal';

interface Session {
  principal: Principal;
  csrfToken: string;
  lastSeen: number;
}

/** A session ends after this long without a request. */
const IDLE_MS = 8 * 60 * 60 * 1000;

const digest = (text: string): string => createHash('sha256').update(text).digest('base64');

/**
 * Browser sessions (`POST /noninteractivelogin/`): a random session id in an HttpOnly cookie
 * and a CSRF token the page echoes in `X-CSRFToken` on every write. Only a hash of the id is
 * kept, so a heap dump never holds a usable session. Sessions live in memory: a restart signs
 * every browser out, which is acceptable for one workstation.
 */
export class Sessions {
  private readonly byIdHash = new Map<string, Session>();

  create(principal: Principal): { sessionId: string; csrfToken: string } {
    const sessionId = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    this.byIdHash.set(digest(sessionId), { principal, csrfToken, lastSeen: Date.now() });
    return { sessionId, csrfToken };
  }

  find(sessionId: string): Session | undefined {
    const key = digest(sessionId);
    const session = this.byIdHash.get(key);
    if (!session) return undefined;
    if (Date.now() - session.lastSeen > IDLE_MS) {
      this.byIdHash.delete(key);
      return undefined;
    }
    session.lastSeen = Date.now();
    return session;
  }

  end(sessionId: string): void {
    this.byIdHash.delete(digest(sessionId));
  }

  /** A changed or deleted user keeps no session with its old rights. */
  endAllOf(userPkid: string): void {
    for (const [key, session] of this.byIdHash) if (session.principal.pkid === userPkid) this.byIdHash.delete(key);
  }

  endAll(): void {
    this.byIdHash.clear();
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
    if (name && !cookies.has(name)) cookies.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return cookies;
}
