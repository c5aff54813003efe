import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/service/store/db';
import { MIGRATIONS } from '../../main/service/store/migrations';
import { basicAuth, compactWorkbook, upload, validate } from './bulk-validate-helpers';
import { openTestService, PARIS, q, type TestService } from './helpers';

/**
 * Issue 11, finding 1: a bulk load ran the newest upload of a name, whoever sent it. The Paris
 * site admin planted `lines-7.xlsx` (a row making an admin at `sys`); the root admin's bulk load
 * of that name ran it with root's rights. Uploads now belong to their sender.
 */
let t: TestService;
const parisAdmin = basicAuth('planter.admin', 'planter-pw-123');

const plantedSheet = (): Promise<Buffer> =>
  compactWorkbook('User', ['# Hierarchy Node', 'username', 'role', 'password'], [['sys', 'planted.root', 'admin', 'planted-pw-123']]);

const bulkLoad = (fileName: string, hierarchy: string, headers: Record<string, string> = {}) =>
  t.call(
    'POST',
    `/api/tool/BulkLoad/${q(hierarchy, '&method=bulkload_spreadsheet')}`,
    { bulkload_file: fileName, execute_immediately: true },
    headers,
  );

const userNamed = (username: string) => t.service.store.instances.findByKey('data/User', JSON.stringify([username]))[0];

beforeAll(async () => {
  t = await openTestService({ demo: true });
  const made = await t.call('POST', `/api/data/User/${q(PARIS)}`, {
    data: { username: 'planter.admin', role: 'admin', password: 'planter-pw-123' },
  });
  if (made.status !== 200) throw new Error(`setup: ${made.text}`);
});
afterAll(() => t.close());

describe('uploads belong to their sender', () => {
  it("never runs a site admin's planted upload in the root admin's bulk load or validation", async () => {
    expect((await upload(t, 'lines-7.xlsx', await plantedSheet(), PARIS, parisAdmin)).status).toBe(200);
    const before = t.snapshot({ withTransactions: true });

    const loaded = await bulkLoad('lines-7.xlsx', 'sys');
    expect(loaded.status).toBe(404);
    expect(loaded.body).toMatchObject({ success: false, http_code: 404, code: 'not-found' });
    const validated = await validate(t, 'lines-7.xlsx', 'sys');
    expect(validated.status).toBe(404);

    await t.service.idle();
    expect(userNamed('planted.root')).toBeUndefined();
    expect(t.snapshot({ withTransactions: true })).toBe(before);
  });

  it("takes the caller's own file of that name even when someone else's is newer", async () => {
    const own = await compactWorkbook('Countries', ['country_name', 'iso_code'], [['Root Own Land', 'QO']]);
    const ownUpload = await upload(t, 'shared-name.xlsx', own, 'sys');
    expect(ownUpload.status).toBe(200);
    expect((await upload(t, 'shared-name.xlsx', await plantedSheet(), PARIS, parisAdmin)).status).toBe(200);

    const loaded = await bulkLoad('shared-name.xlsx', 'sys');
    expect(loaded.status).toBe(200);
    await t.service.idle();
    expect(userNamed('planted.root')).toBeUndefined();
    const made = await t.get(`/api/data/Countries/${q('sys', '&filter_field=iso_code&filter_condition=equals&filter_text=QO')}`);
    expect(made.body.resources.map((resource: { data: { country_name: string } }) => resource.data.country_name)).toEqual([
      'Root Own Land',
    ]);
  });

  it('lets the sender use its own file, and no other site admin', async () => {
    const lines = await compactWorkbook('LineRelation', ['# Hierarchy Node', '# Directory Number'], [[PARIS, '+33140001091']]);
    expect((await upload(t, 'paris-own.xlsx', lines, PARIS, parisAdmin)).status).toBe(200);
    expect((await validate(t, 'paris-own.xlsx', PARIS, parisAdmin)).status).toBe(200);
    expect(
      (await t.call('POST', `/api/data/User/${q(PARIS)}`, { data: { username: 'second.admin', role: 'admin', password: 'second-pw-123' } }))
        .status,
    ).toBe(200);
    expect((await validate(t, 'paris-own.xlsx', PARIS, basicAuth('second.admin', 'second-pw-123'))).status).toBe(404);
  });

  it('leaves an upload whose sender is unknown to admins at sys only', async () => {
    const lines = await compactWorkbook('LineRelation', ['# Hierarchy Node', '# Directory Number'], [[PARIS, '+33140001092']]);
    const sent = await upload(t, 'orphan.xlsx', lines, PARIS, parisAdmin);
    // What the migration leaves for an upload it cannot give to anyone.
    t.service.store.db.prepare('UPDATE uploads SET owner_pkid = NULL WHERE id = ?').run(sent.body.uploadedfiles[0].id);
    expect((await validate(t, 'orphan.xlsx', PARIS, parisAdmin)).status).toBe(404);
    expect((await validate(t, 'orphan.xlsx', PARIS)).status).toBe(200);
  });
});

describe('the migration that gives existing uploads an owner', () => {
  it('gives each upload to the user of that name who existed when it arrived, and keeps every upload', () => {
    const dir = mkdtempSync(join(tmpdir(), 'upload-owners-'));
    try {
      const file = join(dir, 'old.sqlite');
      const old = openDatabase(
        file,
        MIGRATIONS.filter((migration) => migration.version <= 5),
      );
      old.prepare("INSERT INTO nodes (pkid, parent_pkid, name, path, node_type) VALUES ('root', NULL, 'sys', 'sys', 'Root')").run();
      const user = old.prepare(
        "INSERT INTO instances (pkid, model_type, hierarchy_pkid, data, bkey, created_at, updated_at) VALUES (?, 'data/User', 'root', '{}', ?, ?, ?)",
      );
      user.run('u-early', JSON.stringify(['early.sender']), '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z');
      user.run('u-late', JSON.stringify(['late.sender']), '2026-03-01T00:00:00.000000Z', '2026-03-01T00:00:00.000000Z');
      const row = old.prepare(
        "INSERT INTO uploads (id, name, size, sha256, hierarchy_pkid, username, created_at, seq) VALUES (?, 'a.xlsx', 1, 'x', 'root', ?, '2026-02-01T00:00:00.000000Z', ?)",
      );
      row.run('1'.repeat(24), 'early.sender', 1);
      row.run('2'.repeat(24), 'late.sender', 2);
      row.run('3'.repeat(24), 'deleted.sender', 3);
      old.close();

      const migrated = openDatabase(file);
      const owners = migrated.prepare('SELECT id, owner_pkid FROM uploads ORDER BY seq').all();
      migrated.close();
      // The late sender's account was made after the file arrived: that is not who sent it.
      expect(owners).toEqual([
        { id: '1'.repeat(24), owner_pkid: 'u-early' },
        { id: '2'.repeat(24), owner_pkid: null },
        { id: '3'.repeat(24), owner_pkid: null },
      ]);
      const reopened = new Database(file, { readonly: true });
      expect(reopened.prepare('SELECT count(*) AS n FROM uploads').get()).toEqual({ n: 3 });
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
