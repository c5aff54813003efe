import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS, type Migration } from './migrations';

export type Db = Database.Database;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** How much of the workspace file the service's connection maps (reads dominate; a workspace can exceed a gigabyte). */
const MMAP_BYTES = 1_073_741_824;

/**
 * Lets go of the pages of the workspace file that the connection has mapped: they stay counted
 * in the process's resident memory once touched, and a job that writes every row of a big staged
 * workbook touches them all (measured: 90 MB of a 100,000-row workbook's plan, on top of what
 * earlier steps had touched). Mapping again is immediate; the next reads fault pages in from the
 * operating system's cache.
 */
export function releaseMappedPages(db: Db): void {
  db.pragma('mmap_size = 0');
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
}

/** The connection's page cache, in KiB. */
export const CACHE_KIB = 65_536;

/** Opens (creating if needed) one workspace file, in WAL mode, with every migration applied. */
export function openDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL is durable across process crashes in WAL mode; only an OS crash may lose the
    // last commits, never corrupt the file.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // Reads dominate and a workspace can exceed a gigabyte: map it rather than copy pages
    // through the small default cache.
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    db.pragma(`cache_size = -${CACHE_KIB}`);
    applyMigrations(db, migrations);
    // Keeps planner statistics current on big tables, so lists keep their index (cheap when
    // nothing changed; SQLite's recommended call at open).
    db.pragma('optimize = 0x10002');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A bound value the query planner does not look at, for look-ups run many times a second:
 * `bkey = ${UNSAMPLED}`. ANALYZE in this build of SQLite keeps value samples (sqlite_stat4), and
 * with them SQLite prepares a statement again on every run whose bound value meets an indexed
 * column, to plan for that value: a business-key look-up took 5.7 µs instead of 0.6 (a bulk load
 * and a validation run several a row). The unary plus hides the value from the planner and
 * leaves the plan as it is (the same index, sought by equality); plans that do gain from the
 * samples (a search's literal model type, say) keep them.
 */
export const UNSAMPLED = '+?';

export class MigrationError extends Error {}

function applyMigrations(db: Db, migrations: readonly Migration[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, sha256 TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Map(
    db
      .prepare<[], { version: number; sha256: string }>('SELECT version, sha256 FROM schema_migrations')
      .all()
      .map((row) => [row.version, row.sha256]),
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, sha256, applied_at) VALUES (?, ?, ?, ?)');
  for (const migration of migrations) {
    const hash = sha256(migration.sql);
    const appliedHash = applied.get(migration.version);
    if (appliedHash !== undefined) {
      if (appliedHash !== hash) {
        throw new MigrationError(
          `Migration ${migration.version} (${migration.name}) was edited after it was applied to this store; ` +
            'add a new migration instead of changing a shipped one.',
        );
      }
      continue;
    }
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, hash, new Date().toISOString());
    })();
  }
  const known = new Set(migrations.map((migration) => migration.version));
  for (const version of applied.keys()) {
    if (!known.has(version)) {
      throw new MigrationError(`This store was written by a newer version (migration ${version}); update the app.`);
    }
  }
}
