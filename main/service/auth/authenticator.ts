import { createHash } from 'node:crypto';
import { ApiError } from '../errors';
import type { Store } from '../domain/store';
import type { Principal } from './principal';
import { LoginThrottle } from './login-throttle';
import { hashPassword, randomPassword, verifyPassword } from './passwords';

const AUTH_REQUIRED = 'Authentication required: send Basic credentials (user name and password).';

interface CacheEntry {
  principal: Principal;
  verifiedAt: number;
}

/** A remembered credential is checked again after this long, even if no write invalidated it. */
const CACHE_TTL_MS = 60_000;

/**
 * Basic authentication on every request. scrypt costs ~50 ms, so a verified credential is
 * remembered (keyed by a hash of the header, never the header itself) for a minute, or until
 * any write to a user (password, role, node, delete) calls `invalidate()`; a failed one is
 * never cached.
 */
export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();
  /** Checks under way: a burst of requests with one new header waits on a single scrypt. */
  private readonly pending = new Map<string, Promise<CacheEntry>>();
  /** Bumped by invalidate(): a check that started before a user write is not remembered. */
  private generation = 0;
  private static readonly MAX_CACHE = 1000;

  /** Made once, at start, so that the first unknown user name is not answered faster or slower. */
  private readonly dummyHash: Promise<string> = hashPassword(randomPassword());

  constructor(
    private readonly store: Store,
    private readonly throttle: LoginThrottle = new LoginThrottle(),
  ) {}

  async authenticate(authorization: string | undefined, address = 'local'): Promise<Principal> {
    if (!authorization || !/^basic\s+/i.test(authorization)) throw new ApiError(401, 'authentication-required', AUTH_REQUIRED);
    const cacheKey = createHash('sha256').update(authorization).digest('base64');
    const cached = this.cache.get(cacheKey);
    if (cached && Date.now() - cached.verifiedAt < CACHE_TTL_MS) return cached.principal;
    this.cache.delete(cacheKey);
    const generation = this.generation;
    let check = this.pending.get(cacheKey);
    if (!check) {
      check = this.verify(authorization, address).finally(() => this.pending.delete(cacheKey));
      this.pending.set(cacheKey, check);
    }
    const entry = await check;
    if (generation === this.generation) {
      if (this.cache.size >= Authenticator.MAX_CACHE) this.cache.clear();
      this.cache.set(cacheKey, entry);
    }
    return entry.principal;
  }

  private async verify(authorization: string, address: string): Promise<CacheEntry> {
    const decoded = Buffer.from(authorization.replace(/^basic\s+/i, ''), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new ApiError(401, 'authentication-required', AUTH_REQUIRED);
    const principal = await this.login(decoded.slice(0, colon), decoded.slice(colon + 1), address);
    return { principal, verifiedAt: Date.now() };
  }

  /**
   * Checks a user name and password, slowed down after failures (see LoginThrottle). An unknown
   * user name costs the same scrypt as a known one, against a hash of no one's password, so the
   * time of the answer does not tell which user names exist.
   */
  async login(username: string, password: string, address: string): Promise<Principal> {
    let user: ReturnType<Store['instances']['findByKey']>[number] | undefined;
    const ok = await this.throttle.attempt(address, username, async () => {
      user = this.store.instances.findByKey('data/User', JSON.stringify([username]))[0];
      const credentials = user && this.store.credentials.get(user.pkid);
      const matches = await verifyPassword(password, credentials?.password_hash ?? (await this.dummyHash));
      return matches && credentials !== undefined;
    });
    if (!ok || !user) throw new ApiError(401, 'authentication-required', 'The user name or password is wrong.');
    return {
      pkid: user.pkid,
      username,
      role: (user.data.role as Principal['role'] | undefined) ?? 'readonly',
      hierarchyPkid: user.hierarchyPkid,
    };
  }

  /** Any write to users or credentials calls this; the next request re-verifies. */
  invalidate(): void {
    this.generation += 1;
    this.pending.clear();
    this.cache.clear();
  }
}
