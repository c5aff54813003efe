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
  detected_release: 'before-21.1' | '21.1-or-later' | null;
  detected_at: string | null;
  owner_pkid: string;
  hierarchy_pkid: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS: (keyof RemoteProfileRow)[] = [
  'pkid', 'name', 'base_url', 'username', 'auth_mode', 'ca_pem', 'connect_timeout_ms', 'response_timeout_ms', 'idle_timeout_ms',
  'release', 'detected_release', 'detected_at', 'owner_pkid', 'hierarchy_pkid', 'created_at', 'updated_at',
];

/** The remote_profiles table (migration 8). Read on every use, so a profile changed by the CLI is seen at once by a running server. */
export class RemoteProfilesRepo {
  private readonly all;
  private readonly byPkid;
  private readonly byName;
  private readonly insertRow;
  private readonly updateRow;
  private readonly deleteRow;
  private readonly detected;

  constructor(db: Db) {
    this.all = db.prepare<[], RemoteProfileRow>('SELECT * FROM remote_profiles ORDER BY name');
    this.byPkid = db.prepare<[string], RemoteProfileRow>('SELECT * FROM remote_profiles WHERE pkid = ?');
    this.byName = db.prepare<[string], RemoteProfileRow>('SELECT * FROM remote_profiles WHERE name = ?');
    this.insertRow = db.prepare(`INSERT INTO remote_profiles (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`);
    const settable = COLUMNS.filter((c) => !['pkid', 'owner_pkid', 'hierarchy_pkid', 'created_at', 'detected_release', 'detected_at'].includes(c));
    this.updateRow = db.prepare(`UPDATE remote_profiles SET ${settable.map((c) => `${c} = @${c}`).join(', ')} WHERE pkid = @pkid`);
    this.deleteRow = db.prepare('DELETE FROM remote_profiles WHERE pkid = ?');
    this.detected = db.prepare('UPDATE remote_profiles SET detected_release = ?, detected_at = ? WHERE pkid = ?');
  }

  list(): RemoteProfileRow[] {
    return this.all.all();
  }

  /** By pkid, else by name (case-insensitive). */
  find(idOrName: string): RemoteProfileRow | undefined {
    return this.byPkid.get(idOrName) ?? this.byName.get(idOrName);
  }

  insert(row: RemoteProfileRow): void {
    this.insertRow.run(row);
  }

  update(row: RemoteProfileRow): void {
    this.updateRow.run(row);
  }

  delete(pkid: string): void {
    this.deleteRow.run(pkid);
  }

  setDetectedRelease(pkid: string, line: RemoteProfileRow['detected_release'], at: string): void {
    this.detected.run(line, at, pkid);
  }
}
