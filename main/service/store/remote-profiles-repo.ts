import type { Db } from './db';

export interface RemoteProfileRow {
  pkid: string;
  name: string;
  base_url: string;
  username: string;
  auth_mode: 'session' | 'basic';
  ca_pem: string | null;
  connect_timeout_ms: number;
  response_timeout_ms: number;
  idle_timeout_ms: number;
  release: string | null;
  /** Where the remote user's tree starts when the remote has no /api/whoami/ (migration 9). */
  home_hierarchy: string | null;
  detected_release: 'before-21.1' | '21.1-or-later' | null;
  detected_at: string | null;
  owner_pkid: string;
  hierarchy_pkid: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS: (keyof RemoteProfileRow)[] = [
  'pkid',
  'name',
  'base_url',
  'username',
  'auth_mode',
  'ca_pem',
  'connect_timeout_ms',
  'response_timeout_ms',
  'idle_timeout_ms',
  'release',
  'home_hierarchy',
  'detected_release',
  'detected_at',
  'owner_pkid',
  'hierarchy_pkid',
  'created_at',
  'updated_at',
];

/**
 * How often a running server looks for profiles changed by another connection (the CLI's
 * `remote add` or `remote remove` beside a running `serve`), as the read cache does.
 */
const CHECK_INTERVAL_MS = 100;

/** SQLite's NOCASE folds ASCII letters only; the cache must match names exactly as the UNIQUE index does. */
const nocase = (text: string): string => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/**
 * The remote_profiles table (migration 8). Every live request looks its profile up, so the rows
 * are kept in memory: two SELECTs per request were a fifth of the proxy's CPU in the remote
 * bench (each is a read transaction with its lock syscalls). This repository's own writes drop
 * them at once; a commit by another connection shows in `data_version`, read at most every
 * CHECK_INTERVAL_MS, so a profile the CLI changed or removed is seen within that.
 */
export class RemoteProfilesRepo {
  private readonly all;
  private readonly insertRow;
  private readonly updateRow;
  private readonly deleteRow;
  private readonly detected;
  private readonly dataVersion;
  private cached: { list: RemoteProfileRow[]; byKey: Map<string, RemoteProfileRow> } | undefined;
  private seenVersion = -1;
  private checkedAt = 0;

  constructor(db: Db) {
    this.all = db.prepare<[], RemoteProfileRow>('SELECT * FROM remote_profiles ORDER BY name');
    this.insertRow = db.prepare(`INSERT INTO remote_profiles (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`);
    const settable = COLUMNS.filter(
      (c) => !['pkid', 'owner_pkid', 'hierarchy_pkid', 'created_at', 'detected_release', 'detected_at'].includes(c),
    );
    this.updateRow = db.prepare(`UPDATE remote_profiles SET ${settable.map((c) => `${c} = @${c}`).join(', ')} WHERE pkid = @pkid`);
    this.deleteRow = db.prepare('DELETE FROM remote_profiles WHERE pkid = ?');
    this.detected = db.prepare('UPDATE remote_profiles SET detected_release = ?, detected_at = ? WHERE pkid = ?');
    this.dataVersion = db.prepare<[], { data_version: number }>('PRAGMA data_version');
  }

  /** The rows, by name. The same objects until a change: treat them as read-only. */
  list(): RemoteProfileRow[] {
    return [...this.rows().list];
  }

  /** By pkid, else by name (case-insensitive). */
  find(idOrName: string): RemoteProfileRow | undefined {
    const { byKey } = this.rows();
    return byKey.get(`id ${idOrName}`) ?? byKey.get(`name ${nocase(idOrName)}`);
  }

  insert(row: RemoteProfileRow): void {
    this.cached = undefined;
    this.insertRow.run(row);
  }

  update(row: RemoteProfileRow): void {
    this.cached = undefined;
    this.updateRow.run(row);
  }

  delete(pkid: string): void {
    this.cached = undefined;
    this.deleteRow.run(pkid);
  }

  setDetectedRelease(pkid: string, line: RemoteProfileRow['detected_release'], at: string): void {
    this.cached = undefined;
    this.detected.run(line, at, pkid);
  }

  private rows(): { list: RemoteProfileRow[]; byKey: Map<string, RemoteProfileRow> } {
    const now = Date.now();
    if (now - this.checkedAt >= CHECK_INTERVAL_MS) {
      this.checkedAt = now;
      const version = this.dataVersion.get()?.data_version ?? 0;
      if (version !== this.seenVersion) {
        this.seenVersion = version;
        this.cached = undefined;
      }
    }
    if (this.cached) return this.cached;
    const list = this.all.all();
    const byKey = new Map<string, RemoteProfileRow>();
    for (const row of list) byKey.set(`id ${row.pkid}`, row).set(`name ${nocase(row.name)}`, row);
    this.cached = { list, byKey };
    return this.cached;
  }
}
