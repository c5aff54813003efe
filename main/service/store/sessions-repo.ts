import type { Db } from './db';

export interface SessionRow {
  id_hash: string;
  user_pkid: string;
  csrf_token: string;
  origin: 'login' | 'basic';
  created_ms: number;
  last_seen_ms: number;
}

/** The sessions table (migration 7): rows keyed by the hash of a session id, never the id. */
export class SessionsRepo {
  private readonly byHash;
  private readonly insertRow;
  private readonly touchRow;
  private readonly deleteRow;
  private readonly deleteOfUser;
  private readonly deleteIdle;

  constructor(db: Db) {
    this.byHash = db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE id_hash = ?');
    this.insertRow = db.prepare(
      'INSERT INTO sessions (id_hash, user_pkid, csrf_token, origin, created_ms, last_seen_ms) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.touchRow = db.prepare('UPDATE sessions SET last_seen_ms = ? WHERE id_hash = ?');
    this.deleteRow = db.prepare('DELETE FROM sessions WHERE id_hash = ?');
    this.deleteOfUser = db.prepare('DELETE FROM sessions WHERE user_pkid = ?');
    this.deleteIdle = db.prepare('DELETE FROM sessions WHERE last_seen_ms < ?');
  }

  get(idHash: string): SessionRow | undefined {
    return this.byHash.get(idHash);
  }

  insert(row: SessionRow): void {
    this.insertRow.run(row.id_hash, row.user_pkid, row.csrf_token, row.origin, row.created_ms, row.last_seen_ms);
  }

  /** False when the row is gone (ended by another process on the same file). */
  touch(idHash: string, lastSeenMs: number): boolean {
    return this.touchRow.run(lastSeenMs, idHash).changes > 0;
  }

  delete(idHash: string): void {
    this.deleteRow.run(idHash);
  }

  deleteAllOf(userPkid: string): void {
    this.deleteOfUser.run(userPkid);
  }

  deleteIdleBefore(cutoffMs: number): number {
    return this.deleteIdle.run(cutoffMs).changes;
  }
}
