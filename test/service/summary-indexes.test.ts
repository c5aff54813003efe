import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFile } from '../../main/service';
import { instanceSource } from '../../main/service/list/instance-source';
import { parseListParams } from '../../main/service/list/list-params';
import { buildListSql } from '../../main/service/list/list-sql';
import { requireModel } from '../../main/service/models/registry';
import { openDatabase } from '../../main/service/store/db';
import { traversalScope } from '../../main/service/store/nodes-repo';
import { openTestService } from './helpers';

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'workstation-indexes-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('summary indexes', () => {
  it('are made from the registry at open, and stale ones are dropped', async () => {
    (await openTestService({ dataDir })).close();
    const db = openDatabase(workspaceFile(dataDir));
    const names = (): string[] =>
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'summary_%'").all() as { name: string }[]).map(
        (row) => row.name,
      );
    expect(names()).toContain('summary_relation_LineRelation_pattern');
    db.exec("CREATE INDEX summary_relation_LineRelation_gone ON instances (json_extract(data, '$.gone'))");
    db.close();
    const reopened = await openTestService({ dataDir });
    const after = (
      reopened.service.store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'summary_%'").all() as {
        name: string;
      }[]
    ).map((row) => row.name);
    expect(after).not.toContain('summary_relation_LineRelation_gone');
    expect(after).toContain('summary_relation_LineRelation_pattern');
    reopened.close();
  });

  it('serve a filtered, ordered list with its count without scanning or sorting the table', async () => {
    const t = await openTestService({ dataDir });
    const model = requireModel('relation/LineRelation');
    const node = t.service.store.nodes.getByPath('sys');
    if (!node) throw new Error('no root');
    const params = parseListParams(
      model,
      new URLSearchParams('filter_field=pattern&filter_condition=startswith&filter_text=%2B44&order_by=pattern'),
      undefined,
    );
    const sql = buildListSql(instanceSource(model, true), params, traversalScope('down', node), 'i.hierarchy_pkid');
    const planOf = (query: string, values: readonly unknown[]): string =>
      (t.service.store.db.prepare(`EXPLAIN QUERY PLAN ${query}`).all(...values) as { detail: string }[])
        .map((row) => row.detail)
        .join(' | ');
    expect(planOf(sql.page, sql.pageParams)).toMatch(/USING (COVERING )?INDEX summary_relation_LineRelation_pattern/);
    // The count needs nothing outside the index: no row of the table is read.
    expect(planOf(sql.count, sql.countParams)).toContain('USING COVERING INDEX summary_relation_LineRelation_pattern');
    for (const plan of [planOf(sql.page, sql.pageParams), planOf(sql.count, sql.countParams)])
      expect(plan).not.toMatch(/SCAN i\b|TEMP B-TREE/);
    t.close();
  });
  it('gives a rebuilt index planner statistics when the store has them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'workstation-indexes-stats-'));
    (await openTestService({ dataDir: dir })).close();
    const db = openDatabase(workspaceFile(dir));
    db.exec('ANALYZE');
    // An older definition of the index: the next open must drop it, make it again, and analyse it.
    db.exec('DROP INDEX summary_relation_LineRelation_pattern');
    db.exec("CREATE INDEX summary_relation_LineRelation_pattern ON instances (json_extract(data, '$.pattern'))");
    db.exec("DELETE FROM sqlite_stat1 WHERE idx = 'summary_relation_LineRelation_pattern'");
    db.close();
    const reopened = await openTestService({ dataDir: dir });
    const stats = reopened.service.store.db
      .prepare("SELECT stat FROM sqlite_stat1 WHERE idx = 'summary_relation_LineRelation_pattern'")
      .get();
    expect(stats).toBeDefined();
    reopened.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are filled from the documents at open for a store written before the summary column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'workstation-indexes-fill-'));
    const first = await openTestService({ dataDir: dir, demo: true });
    const listed = async (service: Awaited<ReturnType<typeof openTestService>>): Promise<unknown> =>
      (await service.get('/api/relation/LineRelation/?hierarchy=sys&order_by=alertingName&limit=5')).body;
    const before = await listed(first);
    expect((before as { resources: unknown[] }).resources.length).toBeGreaterThan(0);
    first.close();
    // What a store of the previous release holds: no summaries yet, indexes on the documents.
    const db = openDatabase(workspaceFile(dir));
    db.exec("UPDATE instances SET summary = '{}'");
    db.exec('DROP INDEX summary_relation_LineRelation_pattern');
    db.exec(
      "CREATE INDEX summary_relation_LineRelation_pattern ON instances (lower(json_extract(data, '$.pattern')), id) WHERE model_type = 'relation/LineRelation'",
    );
    db.close();
    const reopened = await openTestService({ dataDir: dir });
    expect(await listed(reopened)).toEqual(before);
    reopened.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('follow every change of a summary attribute, and only summary attributes', async () => {
    const t = await openTestService({ demo: true });
    const phones = (filter: string): Promise<{ body: { resources: { data: Record<string, unknown> }[] } }> =>
      t.get(`/api/device/cucm/Phone/?hierarchy=sys&filter_field=description&filter_condition=equals&filter_text=${filter}`) as never;
    const created = await t.call('POST', `/api/device/cucm/Phone/?hierarchy=${encodeURIComponent('sys.hcs.Telco.Acme.Paris')}`, {
      data: { name: 'SEP0000CAFE0001', product: 'Cisco 8845', protocol: 'SIP', description: 'lobby' },
    });
    expect(created.status).toBeLessThan(300);
    // Same key and node: the document is rewritten in place; a new description must reach the summary.
    expect((await t.call('PUT', created.body.href, { data: { description: 'reception' } })).status).toBeLessThan(300);
    expect((await phones('lobby')).body.resources).toHaveLength(0);
    expect((await phones('reception')).body.resources.map((row) => row.data.name)).toEqual(['SEP0000CAFE0001']);
    // A field outside the summary changes the document and leaves the summary as it was.
    expect(
      (await t.call('PUT', created.body.href, { data: { lines: [{ pattern: '+33100000001', routePartitionName: '' }] } })).status,
    ).toBeLessThan(300);
    const stored = t.service.store.db.prepare('SELECT summary FROM instances WHERE pkid = ?').get(created.body.pkid) as { summary: string };
    expect(JSON.parse(stored.summary)).toEqual({
      name: 'SEP0000CAFE0001',
      product: 'Cisco 8845',
      protocol: 'SIP',
      description: 'reception',
    });
    t.close();
  });
});
