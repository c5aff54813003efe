import type { Db } from '../store/db';

/**
 * Serialized answers of instance reads, for the instances a user keeps coming back to (list,
 * detail, back again). A hit touches no SQLite at all. Every commit or rollback of this service
 * calls `invalidate()` at once. A commit by another connection to the file (a worker thread,
 * the CLI) shows in SQLite's `data_version`, read at most every CHECK_INTERVAL_MS: each read is
 * a transaction with its lock syscalls, which would cost a hit more than the hit saves. Keys
 * include the caller, so a per-user answer is never served to another user.
 */
const CHECK_INTERVAL_MS = 100;

/** What an instance answer depends on: the caller, the whole URL, and the version header. */
export const readKey = (principalPkid: string, xVersion: string | undefined, url: string): string =>
  `${principalPkid} ${xVersion ?? ''} ${url}`;

export class ReadCache {
  private readonly entries = new Map<string, string>();
  /** A list's total, per count query and parameters: paging through a list counts it once. */
  private readonly totals = new Map<string, number>();
  private readonly dataVersion;
  private seenVersion = -1;
  private checkedAt = 0;

  constructor(
    db: Db,
    private readonly maxEntries = 20_000,
  ) {
    this.dataVersion = db.prepare<[], { data_version: number }>('PRAGMA data_version');
  }

  get(key: string): string | undefined {
    this.dropIfChangedElsewhere();
    const body = this.entries.get(key);
    if (body !== undefined) {
      // Re-inserting keeps the Map in least-recently-used order for eviction.
      this.entries.delete(key);
      this.entries.set(key, body);
    }
    return body;
  }

  set(key: string, body: string): void {
    this.dropIfChangedElsewhere();
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, body);
  }

  invalidate(): void {
    this.entries.clear();
    this.totals.clear();
  }

  total(key: string, count: () => number): number {
    this.dropIfChangedElsewhere();
    let total = this.totals.get(key);
    if (total === undefined) {
      total = count();
      if (this.totals.size >= this.maxEntries) this.totals.clear();
      this.totals.set(key, total);
    }
    return total;
  }

  private dropIfChangedElsewhere(): void {
    const now = Date.now();
    if (now - this.checkedAt < CHECK_INTERVAL_MS) return;
    this.checkedAt = now;
    const version = this.dataVersion.get()?.data_version ?? 0;
    if (version !== this.seenVersion) {
      this.entries.clear();
      this.totals.clear();
      this.seenVersion = version;
    }
  }
}
