import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createService, workspaceFile } from '../../main/service';
import { MigrationError, openDatabase } from '../../main/service/store/db';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'workstation-store-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('store', () => {
  it('opens in WAL mode with every migration recorded', () => {
    const db = openDatabase(join(tempDir(), 'a.sqlite'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const applied = db.prepare('SELECT version, name, sha256 FROM schema_migrations').all() as { sha256: string }[];
    expect(applied.length).toBeGreaterThan(0);
    expect(applied[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    db.close();
  });

  it('refuses to open a store whose applied migration was edited', () => {
    const file = join(tempDir(), 'b.sqlite');
    openDatabase(file, [{ version: 1, name: 'first', sql: 'CREATE TABLE t (a INTEGER);' }]).close();
    expect(() => openDatabase(file, [{ version: 1, name: 'first', sql: 'CREATE TABLE t (a TEXT);' }])).toThrow(MigrationError);
    // An appended migration is applied on top of the recorded one.
    const db = openDatabase(file, [
      { version: 1, name: 'first', sql: 'CREATE TABLE t (a INTEGER);' },
      { version: 2, name: 'second', sql: 'CREATE TABLE u (b INTEGER);' },
    ]);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'u'").get()).toBeTruthy();
    db.close();
  });

  it('refuses a store written by a newer version', () => {
    const file = join(tempDir(), 'c.sqlite');
    openDatabase(file, [
      { version: 1, name: 'first', sql: 'CREATE TABLE t (a INTEGER);' },
      { version: 2, name: 'second', sql: 'CREATE TABLE u (b INTEGER);' },
    ]).close();
    expect(() => openDatabase(file, [{ version: 1, name: 'first', sql: 'CREATE TABLE t (a INTEGER);' }])).toThrow(/newer version/);
  });

  it('keeps one database file per workspace in the data folder', async () => {
    const dataDir = tempDir();
    const local = await createService({ dataDir, adminPassword: 'x-password-1' });
    const mirror = await createService({ dataDir, workspace: 'Remote-Acme', adminPassword: 'x-password-1' });
    expect(existsSync(workspaceFile(dataDir))).toBe(true);
    expect(existsSync(workspaceFile(dataDir, 'Remote-Acme'))).toBe(true);
    expect(workspaceFile(dataDir)).toBe(join(dataDir, 'workspaces', 'Local.sqlite'));
    local.close();
    mirror.close();
  });
});
