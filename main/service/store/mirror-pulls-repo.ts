import type { Db } from './db';

/** The last pull of a mirror workspace (migration 0015). */
export interface MirrorPullRecord {
  profile_pkid: string;
  home_pkid: string;
  home_path: string;
  /** Local time of the pull's end (ISO 8601). */
  pulled_at: string;
  mode: 'full' | 'changes';
  /** The remote's submitted_time from which the next pull reads transactions; null: pull whole next time. */
  watermark: string | null;
  /** JSON: instances copied per model type, and `changed` for a pull of changes. */
  counts: string;
}

export class MirrorPullsRepo {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      get: db.prepare<[], MirrorPullRecord>(
        'SELECT profile_pkid, home_pkid, home_path, pulled_at, mode, watermark, counts FROM mirror_pulls',
      ),
      put: db.prepare<[string, string, string, string, string, string | null, string]>(
        `INSERT OR REPLACE INTO mirror_pulls (id, profile_pkid, home_pkid, home_path, pulled_at, mode, watermark, counts)
         VALUES (1, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    };
  }

  last(): MirrorPullRecord | undefined {
    return this.s.get.get();
  }

  record(pull: MirrorPullRecord): void {
    this.s.put.run(pull.profile_pkid, pull.home_pkid, pull.home_path, pull.pulled_at, pull.mode, pull.watermark, pull.counts);
  }
}
