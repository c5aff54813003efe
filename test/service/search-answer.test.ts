import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerSql } from '../../main/service/search/search-answer';

/**
 * The answer SQLite writes (search-answer.ts), over hand-made rows in the columns every search
 * selects, so the cases the demo world lacks are covered: nulls, booleans, nested objects,
 * texts JSON must escape, a node that is gone, and no hits at all.
 */
let db: Database.Database;

const HITS: [order: number, modelType: string, pkid: string, hierarchyPkid: string, data: string][] = [
  [3, 'relation/LineRelation', 'c3', 'n1', '{"pattern":"+443","alertingName":null,"usage":"Device"}'],
  [1, 'device/cucm/Phone', 'a1', 'n2', '{"name":"SEP1","enabled":true,"count":2,"ratio":0.5,"cfg":{"x":null,"y":[1,"two"]}}'],
  [2, 'data/User', 'b"2\\', 'gone', '{"username":"Zoë \\"Q\\" O\'Brien","role":null,"email":"null@example.com"}'],
];

beforeAll(() => {
  db = new Database(':memory:');
  db.exec('CREATE TABLE nodes (pkid TEXT PRIMARY KEY, path TEXT NOT NULL)');
  db.exec('CREATE TABLE hits (ord INTEGER, model_type TEXT, pkid TEXT, hierarchy_pkid TEXT, data TEXT)');
  db.prepare('INSERT INTO nodes VALUES (?, ?), (?, ?)').run('n1', 'sys.Acme', 'n2', 'sys.Acme."Quoted"\\Site');
  const insert = db.prepare('INSERT INTO hits VALUES (?, ?, ?, ?, ?)');
  for (const hit of HITS) insert.run(...hit);
});
afterAll(() => db.close());

function answer(where = '1'): unknown {
  const { sql, params } = answerSql({
    sql: `SELECT model_type, pkid, hierarchy_pkid, data FROM hits WHERE ${where} ORDER BY ord LIMIT 1000`,
    params: [],
  });
  const [bytes] = db
    .prepare(sql)
    .raw(true)
    .get(...params) as [Uint8Array];
  expect(bytes).toBeInstanceOf(Uint8Array);
  return JSON.parse(Buffer.from(bytes).toString('utf8'));
}

const meta = (model_type: string, pkid: string, hierarchy: string): object => ({
  model_type,
  pkid,
  hierarchy,
  href: `/api/${model_type}/${pkid}/`,
});

describe('search answer SQL', () => {
  it('writes the result shape of decisions.md, hits in the search order', () => {
    expect(answer()).toEqual({
      pagination: { skip: 0, limit: 1000, total: 3, maximum_limit: 1000 },
      meta: { actions: { export: { href: '/api/export/export_data/?url=/api/tool/Search/', method: 'POST' } } },
      resources: [
        {
          // Types kept, a nested object whole (its own nulls too): only absent attributes go.
          data: { name: 'SEP1', enabled: true, count: 2, ratio: 0.5, cfg: { x: null, y: [1, 'two'] } },
          meta: meta('device/cucm/Phone', 'a1', 'sys.Acme."Quoted"\\Site'),
        },
        // A text holding "null" is not a null; a node that no longer exists has no path.
        { data: { username: 'Zoë "Q" O\'Brien', email: 'null@example.com' }, meta: meta('data/User', 'b"2\\', '') },
        { data: { pattern: '+443', usage: 'Device' }, meta: meta('relation/LineRelation', 'c3', 'sys.Acme') },
      ],
    });
  });

  it('passes a summary without nulls through as stored', () => {
    const data = '{"pattern":"1000","enabled":false,"weight":1.50}';
    const { sql, params } = answerSql({
      sql: "SELECT 'device/cucm/Line' AS model_type, 'd4' AS pkid, 'n1' AS hierarchy_pkid, ? AS data",
      params: [data],
    });
    const [bytes] = db
      .prepare(sql)
      .raw(true)
      .get(...params) as [Uint8Array];
    expect(Buffer.from(bytes).toString('utf8')).toContain(
      `"resources":[{"data":${data},"meta":{"model_type":"device/cucm/Line","pkid":"d4",`,
    );
  });

  it('answers no hits with a total of 0 and an empty list', () => {
    expect(answer('0')).toMatchObject({ pagination: { total: 0 }, resources: [] });
  });
});
