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
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'summary_%'").all() as { name: string }[]).map((row) => row.name);
    expect(names()).toContain('summary_relation_LineRelation_pattern');
    db.exec("CREATE INDEX summary_relation_LineRelation_gone ON instances (json_extract(data, '$.gone'))");
    db.close();
    const reopened = await openTestService({ dataDir });
    const after = (reopened.service.store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'summary_%'").all() as { name: string }[]).map((row) => row.name);
    expect(after).not.toContain('summary_relation_LineRelation_gone');
    expect(after).toContain('summary_relation_LineRelation_pattern');
    reopened.close();
  });

  it('serve a filtered, ordered list with its count without scanning or sorting the table', async () => {
    const t = await openTestService({ dataDir });
    const model = requireModel('relation/LineRelation');
    const node = t.service.store.nodes.getByPath('sys');
    if (!node) throw new Error('no root');
    const params = parseListParams(model, new URLSearchParams('filter_field=pattern&filter_condition=startswith&filter_text=%2B44&order_by=pattern'), undefined);
    const sql = buildListSql(instanceSource(model, true), params, traversalScope('down', node), 'i.hierarchy_pkid');
    for (const [query, values] of [[sql.page, sql.pageParams], [sql.count, sql.countParams]] as const) {
      const plan = (t.service.store.db.prepare(`EXPLAIN QUERY PLAN ${query}`).all(...values) as { detail: string }[]).map((row) => row.detail).join(' | ');
      expect(plan).toContain('USING INDEX summary_relation_LineRelation_pattern');
      expect(plan).not.toMatch(/SCAN i\b|TEMP B-TREE/);
    }
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
    const stats = reopened.service.store.db.prepare("SELECT stat FROM sqlite_stat1 WHERE idx = 'summary_relation_LineRelation_pattern'").get();
    expect(stats).toBeDefined();
    reopened.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
