import { summaryFromData, summaryIndexes } from '../list/instance-source';
import type { ModelDef } from '../models/types';
import type { Db } from './db';

/**
 * Summary-attribute indexes are derived from the model registry, not migrations: at open, the
 * missing ones are made and those no model asks for any more (a renamed or dropped summary
 * attribute) are removed.
 */
export function syncSummaryIndexes(db: Db, models: readonly ModelDef[]): void {
  const wanted = models.filter((model) => model.storage === 'instances').flatMap(summaryIndexes);
  const names = new Set(wanted.map((index) => index.name));
  const existing = new Map(
    db
      .prepare<[], { name: string; sql: string }>(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'summary\\_%' ESCAPE '\\'",
      )
      .all()
      .map((row) => [row.name, row.sql]),
  );
  // An index no model asks for goes; one whose definition changed is made again.
  for (const [name, sql] of existing) {
    const want = wanted.find((index) => index.name === name);
    if (!names.has(name) || want?.sql !== sql) {
      db.exec(`DROP INDEX "${name}"`);
      existing.delete(name);
    }
  }
  const made = wanted.filter((index) => !existing.has(index.name));
  // A model whose first index is made anew has new or changed summary attributes (that index
  // names them all): its summary column is filled from the documents first, as the rows' own
  // writes would have (store/summary-values.ts), and before the indexes, which then sort once.
  const firsts = new Set(made.map((index) => index.name));
  for (const model of models) {
    const [first] = model.storage === 'instances' ? summaryIndexes(model) : [];
    if (first && firsts.has(first.name)) {
      db.prepare(`UPDATE instances SET summary = ${summaryFromData(model)} WHERE model_type = ?`).run(model.modelType);
    }
  }
  for (const index of made) db.exec(index.sql);
  // A store that has planner statistics must get them for a rebuilt index too: next to analysed
  // indexes, one without statistics can be picked for plans that scan it whole (seconds at 1M rows).
  if (made.length > 0 && hasStatistics(db)) for (const index of made) db.exec(`ANALYZE "${index.name}"`);
}

function hasStatistics(db: Db): boolean {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'").get();
  return table !== undefined && db.prepare('SELECT 1 FROM sqlite_stat1 LIMIT 1').get() !== undefined;
}
