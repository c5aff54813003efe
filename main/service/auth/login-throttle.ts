/**
 * Slows down password guessing (decisions.md: repeated failures from one address are slowed
 * down), keyed by address AND user name:
 * - Attempts for one address and user name run one at a time, each after a delay of
 *   250 ms x 2^(failures-1), at most 8 s. Parallel guesses queue behind each other, so 32 clients
 *   guess no faster than one.
 * - A success clears only its own address and user name: logging into one's own account does
 *   not reset the delay of another.
 * - Failures from one address on any user name add a smaller delay, capped at 1 s: a sprayer of
 *   many user names is slowed, while a real user on the same address (on a workstation, every
 *   client is 127.0.0.1) waits at most that cap for someone else's failures.
 * Quiet entries are forgotten after 15 minutes.
 */
export interface ThrottleClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: ThrottleClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
};

const PAIR_BASE_MS = 250;
const PAIR_MAX_MS = 8_000;
const ADDRESS_BASE_MS = 50;
export const ADDRESS_MAX_MS = 1_000;
const FORGET_MS = 15 * 60 * 1000;
const MAX_ENTRIES = 10_000;

interface Failures {
  count: number;
  last: number;
}

interface Pair extends Failures {
  /** Settles when the last attempt queued for this pair is done. */
  tail: Promise<void>;
  queued: number;
}

const backoff = (count: number, base: number, max: number): number => (count === 0 ? 0 : Math.min(max, base * 2 ** (count - 1)));

export class LoginThrottle {
  private readonly pairs = new Map<string, Pair>();
  private readonly addresses = new Map<string, Failures>();

  constructor(private readonly clock: ThrottleClock = realClock) {}

  /** The wait the next attempt for this address and user name would get, queue aside. */
  delayFor(address: string, username: string): number {
    const pair = this.pairs.get(pairKey(address, username));
    const pairDelay = pair && this.fresh(pair) ? backoff(pair.count, PAIR_BASE_MS, PAIR_MAX_MS) : 0;
    const byAddress = this.addresses.get(address);
    const addressDelay = byAddress && this.fresh(byAddress) ? backoff(byAddress.count, ADDRESS_BASE_MS, ADDRESS_MAX_MS) : 0;
    return Math.max(pairDelay, addressDelay);
  }

  /**
   * Runs one password check in turn: after every earlier attempt for this address and user name
   * has finished, and after the delay their failures earned. Answers what `check` answered.
   */
  async attempt(address: string, username: string, check: () => Promise<boolean>): Promise<boolean> {
    const key = pairKey(address, username);
    const pair = this.pairOf(key);
    const previous = pair.tail;
    let release = (): void => undefined;
    pair.tail = new Promise<void>((done) => (release = done));
    pair.queued += 1;
    try {
      await previous;
      const delay = this.delayFor(address, username);
      if (delay > 0) await this.clock.sleep(delay);
      const ok = await check();
      if (ok) this.succeeded(pair);
      else this.failed(pair, address);
      return ok;
    } finally {
      pair.queued -= 1;
      release();
      if (pair.queued === 0 && pair.count === 0) this.pairs.delete(key);
    }
  }

  private pairOf(key: string): Pair {
    let pair = this.pairs.get(key);
    if (!pair) {
      if (this.pairs.size >= MAX_ENTRIES) this.forgetIdle();
      pair = { count: 0, last: 0, tail: Promise.resolve(), queued: 0 };
      this.pairs.set(key, pair);
    } else if (!this.fresh(pair)) {
      pair.count = 0;
    }
    return pair;
  }

  private failed(pair: Pair, address: string): void {
    const now = this.clock.now();
    pair.count += 1;
    pair.last = now;
    const byAddress = this.addresses.get(address);
    const fresh = byAddress && this.fresh(byAddress) ? byAddress : { count: 0, last: now };
    fresh.count += 1;
    fresh.last = now;
    if (this.addresses.size >= MAX_ENTRIES) this.addresses.clear();
    this.addresses.set(address, fresh);
  }

  private succeeded(pair: Pair): void {
    pair.count = 0;
  }

  private fresh(failures: Failures): boolean {
    return this.clock.now() - failures.last <= FORGET_MS;
  }

  /** Keeps the map bounded: drops pairs with nothing queued (the oldest failures go first in effect). */
  private forgetIdle(): void {
    for (const [key, pair] of this.pairs) if (pair.queued === 0) this.pairs.delete(key);
  }
}

/** User names compare as typed; the separator cannot occur in an address. */
const pairKey = (address: string, username: string): string => `${address}\n${username}`;
