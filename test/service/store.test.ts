import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createService, workspaceFile } from '../../main/service';
import { MigrationError, openDatabase } from '../../main/service/store/db';
import { ascendingTransactionIds } from '../../main/service/store/ids';
import { MIGRATIONS } from '../../main/service/store/migrations';
import { TransactionsRepo } from '../../main/service/store/transactions-repo';

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

  it('keeps the step logs of a store written before logs were keyed by row (migration 10)', () => {
    const file = join(tempDir(), 'd.sqlite');
    const before = openDatabase(
      file,
      MIGRATIONS.filter((migration) => migration.version < 10),
    );
    const tx = (id: string): unknown[] => [id, 'Success', 'Execute', 'admin', '2026-11-24T10:00:00.000000'];
    const insertTx = before.prepare(
      'INSERT INTO transactions (transaction_id, status, action, username, submitted_time) VALUES (?, ?, ?, ?, ?)',
    );
    insertTx.run(...tx('11111111-1111-4111-8111-111111111111'));
    insertTx.run(...tx('22222222-2222-4222-8222-222222222222'));
    const insertLog = before.prepare(
      "INSERT INTO transaction_logs (transaction_id, severity, time, message) VALUES (?, 'info', '2026-11-24T10:00:00.000000', ?)",
    );
    insertLog.run('22222222-2222-4222-8222-222222222222', 'second: started');
    insertLog.run('11111111-1111-4111-8111-111111111111', 'first: only entry');
    insertLog.run('22222222-2222-4222-8222-222222222222', 'second: done');
    before.close();
    const after = openDatabase(file);
    const repo = new TransactionsRepo(after);
    expect(repo.logs('22222222-2222-4222-8222-222222222222').map((entry) => entry.message)).toEqual(['second: done', 'second: started']);
    // New entries join the old ones, newest first, and each entry is found by its id.
    repo.log('11111111-1111-4111-8111-111111111111', 'info', '2026-11-24T10:00:01.000000', 'first: appended');
    const first = repo.logs('11111111-1111-4111-8111-111111111111');
    expect(first.map((entry) => entry.message)).toEqual(['first: appended', 'first: only entry']);
    expect(repo.logEntry('11111111-1111-4111-8111-111111111111', first[1].log_id)?.message).toBe('first: only entry');
    expect(repo.logEntry('22222222-2222-4222-8222-222222222222', first[1].log_id)).toBeUndefined();
    after.close();
  });

  it('keeps a step log written whole in one row as entries of their own, each with its id (migration 12)', () => {
    const db = openDatabase(join(tempDir(), 'e.sqlite'));
    const repo = new TransactionsRepo(db);
    const insertTx = db.prepare(
      "INSERT INTO transactions (transaction_id, status, action, username, submitted_time) VALUES (?, 'Success', 'Create', 'admin', '2026-11-25T10:00:00.000000')",
    );
    const [row, other] = ['33333333-3333-4333-8333-333333333333', '44444444-4444-4444-8444-444444444444'];
    insertTx.run(row);
    insertTx.run(other);
    const at = (second: number): string => `2026-11-25T10:00:0${second}.000000`;
    repo.log(other, 'info', at(0), 'other: before');
    // Entries sharing the severity and time of the one before are stored by their message alone.
    const written = [
      ['info', at(1), 'started'],
      ['info', at(1), 'Step 1 - Start'],
      ['info', at(2), 'Step 1 - End'],
      ['error', at(2), 'failed'],
      ['error', at(2), 'rolled back'],
      ['info', at(3), 'done'],
    ] as const;
    repo.logAll(
      row,
      written.map(([severity, time, message]) => ({ severity, time, message })),
    );
    repo.log(other, 'info', at(4), 'other: after');
    const entries = repo.logs(row);
    expect(entries.map((entry) => [entry.severity, entry.time, entry.message])).toEqual([...written].reverse());
    const ids = entries.map((entry) => entry.log_id);
    expect(ids).toEqual(ids.map((_, index) => ids[5] + 5 - index));
    for (const entry of entries) expect(repo.logEntry(row, entry.log_id)).toEqual(entry);
    // The other transaction's entries keep ids of their own, before and after the block, and
    // neither transaction answers for an entry of the other.
    const others = repo.logs(other);
    expect(others.map((entry) => entry.message)).toEqual(['other: after', 'other: before']);
    expect(new Set([...ids, ...others.map((entry) => entry.log_id)]).size).toBe(8);
    expect(others[0].log_id).toBeGreaterThan(ids[0]);
    expect(repo.logEntry(other, ids[1])).toBeUndefined();
    expect(repo.logEntry(row, others[0].log_id)).toBeUndefined();
    db.close();
  });
});

describe("a bulk load's transaction ids", () => {
  const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('are UUID v4, all different, ascending, and spread over the whole range', () => {
    const next = ascendingTransactionIds(10_000);
    const ids = Array.from({ length: 10_000 }, next);
    expect(ids.every((id) => UUID_V4.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id, index) => index === 0 || id > ids[index - 1])).toBe(true);
    // A sorted uniform sample: its quartiles near a quarter, a half and three quarters of the range
    // (a standard deviation of about 0.005 each at this size).
    const at = (share: number): number => Number.parseInt(ids[Math.floor(share * ids.length)].slice(0, 8), 16) / 2 ** 32;
    expect(Math.abs(at(0.25) - 0.25)).toBeLessThan(0.05);
    expect(Math.abs(at(0.5) - 0.5)).toBeLessThan(0.05);
    expect(Math.abs(at(0.75) - 0.75)).toBeLessThan(0.05);
    // The bits after the sorted ones stay random: every variant appears, and the node part varies.
    expect(new Set(ids.map((id) => id.charAt(19)))).toEqual(new Set(['8', '9', 'a', 'b']));
    expect(new Set(ids.map((id) => id.slice(24))).size).toBe(ids.length);
  });

  it('are still UUID v4 past the count they were drawn for', () => {
    const next = ascendingTransactionIds(1);
    const ids = [next(), next(), next()];
    expect(ids.every((id) => UUID_V4.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(3);
  });
});
