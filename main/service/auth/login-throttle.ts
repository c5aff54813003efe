/**
 * Slows down guessing: after failed logins from one address, its next attempt waits
 * 250 ms x 2^(failures-1), at most 8 s. A success clears the address; quiet addresses are
 * forgotten after 15 minutes.
 */
const BASE_DELAY_MS = 250;
const MAX_DELAY_MS = 8_000;
const FORGET_MS = 15 * 60 * 1000;

export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; last: number }>();

  constructor(private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((done) => setTimeout(done, ms))) {}

  delayFor(address: string): number {
    const entry = this.failures.get(address);
    if (!entry) return 0;
    if (Date.now() - entry.last > FORGET_MS) {
      this.failures.delete(address);
      return 0;
    }
    return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (entry.count - 1));
  }

  async wait(address: string): Promise<void> {
    const delay = this.delayFor(address);
    if (delay > 0) await this.sleep(delay);
  }

  failed(address: string): void {
    const entry = this.failures.get(address) ?? { count: 0, last: 0 };
    entry.count += 1;
    entry.last = Date.now();
    this.failures.set(address, entry);
    if (this.failures.size > 10_000) this.failures.clear();
  }

  succeeded(address: string): void {
    this.failures.delete(address);
  }
}
