import type { Db } from './db';

/** Password hashes live apart from the User instance, so no read path can ever return them. */
export class CredentialsRepo {
  private readonly byUser;
  private readonly upsert;
  private readonly remove;

  constructor(db: Db) {
    this.byUser = db.prepare<[string], { password_hash: string; changed_at: string }>(
      'SELECT password_hash, changed_at FROM user_credentials WHERE user_pkid = ?',
    );
    this.upsert = db.prepare(
      `INSERT INTO user_credentials (user_pkid, password_hash, changed_at) VALUES (?, ?, ?)
       ON CONFLICT(user_pkid) DO UPDATE SET password_hash = excluded.password_hash, changed_at = excluded.changed_at`,
    );
    this.remove = db.prepare('DELETE FROM user_credentials WHERE user_pkid = ?');
  }

  get(userPkid: string): { password_hash: string; changed_at: string } | undefined {
    return this.byUser.get(userPkid);
  }

  set(userPkid: string, passwordHash: string, changedAt: string): void {
    this.upsert.run(userPkid, passwordHash, changedAt);
  }

  delete(userPkid: string): void {
    this.remove.run(userPkid);
  }
}
