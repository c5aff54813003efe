import { performance } from 'node:perf_hooks';
import { workspaceFile } from '../../main/service';
import type { JsonObject } from '../../main/service/api-types';
import { businessKeyOf } from '../../main/service/domain/business-key';
import { requireModel } from '../../main/service/models/registry';
import { openDatabase, type Db } from '../../main/service/store/db';
import { isoMicros, newPkid } from '../../main/service/store/ids';
import { summaryText } from '../../main/service/store/summary-values';
import type { BenchConfig } from './bench-config';
import { createTopology, type Topology } from './bench-topology';
import { lineEncoder } from './line-json';

export interface SeedTiming {
  totalSeconds: number;
  topologySeconds: number;
  insertSeconds: number;
  indexSeconds: number;
  analyzeSeconds: number;
}

export interface SeededStore extends Topology {
  file: string;
  rows: number;
  /** About `getSamples` seeded pkids picked at random, for the instance GET scenario. */
  samplePkids: string[];
  timing: SeedTiming;
}

const MODEL_TYPE = 'relation/LineRelation';
const BATCH = 50_000;
/**
 * Lines of the small site, after the `rows` lines of the bench customer (rows, rows + 1...):
 * one whole cycle of the seeded names (12 first names x 11 last names), so each last name is
 * in 12 of them.
 */
export const SMALL_SITE_LINES = 132;
const seconds = (from: number): number => (performance.now() - from) / 1000;

/** Seeds `rows` LineRelation instances; the whole of it is the timed "seeding" of the target. */
export async function seedLines(dataDir: string, config: BenchConfig): Promise<SeededStore> {
  const started = performance.now();
  const topology = await createTopology(dataDir, config.adminPassword, config.sites);
  const topologySeconds = seconds(started);
  const file = workspaceFile(dataDir);
  const db = openDatabase(file);
  try {
    // Seeding only: a crash just means re-running the bench, so durability can wait for the end.
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    const insertStart = performance.now();
    const indexes = dropLineIndexes(db);
    const samplePkids = insertLines(db, topology, config);
    const insertSeconds = seconds(insertStart);
    const indexStart = performance.now();
    for (const sql of indexes) db.exec(sql);
    const indexSeconds = seconds(indexStart);
    const analyzeStart = performance.now();
    db.exec('ANALYZE');
    db.pragma('wal_checkpoint(TRUNCATE)');
    const analyzeSeconds = seconds(analyzeStart);
    const timing = { totalSeconds: seconds(started), topologySeconds, insertSeconds, indexSeconds, analyzeSeconds };
    return { ...topology, file, rows: config.rows, samplePkids, timing };
  } finally {
    db.close();
  }
}

/**
 * Keeping the instance indexes up to date row by row (random pkid and key order, five json_extract
 * expressions) is most of the cost of a bulk insert; building each once afterwards is one sorted
 * pass. Drops every index a LineRelation row would enter and returns their exact CREATE SQL.
 * Other models' partial summary indexes stay: a LineRelation row never enters them.
 */
function dropLineIndexes(db: Db): string[] {
  const indexes = db
    .prepare<[], { name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'instances' AND sql IS NOT NULL",
    )
    .all()
    .filter((index) => !/WHERE model_type = '/.test(index.sql) || index.sql.includes(`'${MODEL_TYPE}'`));
  for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
  return indexes.map((index) => index.sql);
}

/** The summary column as the store writes it (the summary indexes are built on it). */
const summaryOf = (json: string): string => summaryText(MODEL_TYPE, JSON.parse(json) as JsonObject);

function insertLines(db: Db, topology: Topology, config: BenchConfig): string[] {
  const model = requireModel(MODEL_TYPE);
  const encode = lineEncoder(model);
  const insert = db.prepare(
    `INSERT INTO instances (pkid, model_type, hierarchy_pkid, data, summary, bkey, links, created_at, updated_at)
     VALUES (?, '${MODEL_TYPE}', ?, ?, ?, ?, '{}', ?, ?)`,
  );
  const now = isoMicros(new Date());
  // A random sample: an even stride would keep hitting the same site and number block.
  const sampleChance = Math.min(1, config.getSamples / config.rows);
  const samples: string[] = [];
  const batch = db.transaction((from: number, to: number) => {
    for (let index = from; index < to; index += 1) {
      const site = topology.sites[index % topology.sites.length];
      const line = encode(index, site.name);
      const pkid = newPkid();
      insert.run(pkid, site.pkid, line.json, summaryOf(line.json), businessKeyOf(model, line.fields, site.pkid), now, now);
      if (Math.random() < sampleChance) samples.push(pkid);
    }
  });
  for (let from = 0; from < config.rows; from += BATCH) batch(from, Math.min(config.rows, from + BATCH));
  const small = topology.smallSite;
  db.transaction(() => {
    for (let index = config.rows; index < config.rows + SMALL_SITE_LINES; index += 1) {
      const line = encode(index, small.name);
      insert.run(newPkid(), small.pkid, line.json, summaryOf(line.json), businessKeyOf(model, line.fields, small.pkid), now, now);
    }
  })();
  return samples;
}

/** Seeded pkids outside the GET sample, in random order, for reads that find nothing cached. */
export function coldPkids(store: SeededStore, count: number): string[] {
  const db = openDatabase(store.file);
  try {
    const sampled = new Set(store.samplePkids);
    return db
      .prepare<[number], { pkid: string }>(`SELECT pkid FROM instances WHERE model_type = '${MODEL_TYPE}' ORDER BY random() LIMIT ?`)
      .all(count + sampled.size)
      .map((row) => row.pkid)
      .filter((pkid) => !sampled.has(pkid))
      .slice(0, count);
  } finally {
    db.close();
  }
}
