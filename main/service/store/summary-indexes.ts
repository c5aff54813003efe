import { summaryIndexes } from '../list/instance-source';
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
      .prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'summary\\_%' ESCAPE '\\'")
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
  for (const index of wanted) if (!existing.has(index.name)) db.exec(index.sql);
}
