import type { Db } from './db';

/** A workbook the CLI staged from a file's content, for a target (migration 0020). */
export interface WorkbookFileRecord {
  wb: number;
  sha256: string;
  /** `load`, or `push:<profile pkid>`. */
  target: string;
  /** The --hierarchy given, '' for none. */
  hierarchy: string;
  revision: number;
  created_at: string;
}

export class WorkbookFilesRepo {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      put: db.prepare<[number, string, string, string, number, string]>(
        'INSERT OR REPLACE INTO workbook_files (wb, sha256, target, hierarchy, revision, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      // The newest workbook staged from that content for that target, of those still in the store.
      latest: db.prepare<[string, string, string], WorkbookFileRecord>(
        `SELECT f.* FROM workbook_files f JOIN workbooks w ON w.wb = f.wb
         WHERE f.sha256 = ? AND f.target = ? AND f.hierarchy = ? ORDER BY f.created_at DESC, f.wb DESC LIMIT 1`,
      ),
    };
  }

  record(file: WorkbookFileRecord): void {
    this.s.put.run(file.wb, file.sha256, file.target, file.hierarchy, file.revision, file.created_at);
  }

  latest(sha256: string, target: string, hierarchy: string): WorkbookFileRecord | undefined {
    return this.s.latest.get(sha256, target, hierarchy);
  }
}
