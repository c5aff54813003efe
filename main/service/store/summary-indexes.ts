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
  const existing = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'summary\\_%' ESCAPE '\\'")
    .all();
  for (const { name } of existing) if (!names.has(name)) db.exec(`DROP INDEX "${name}"`);
  for (const index of wanted) db.exec(index.sql);
}
