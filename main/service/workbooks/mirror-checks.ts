import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { createStore, type Store } from '../domain/store';
import { isoMicrosAt } from '../store/ids';

/**
 * The store a remote profile's workbook is validated with, on a job's thread: its rows, plan and
 * outcomes from the workspace (where the workbook lives), and everything the rows are checked
 * against (nodes, instances, key holders, templates) from the profile's mirror. The same rules
 * then run offline as they run on the Local store.
 */
export function checkedAgainst(local: Store, mirror: Store): Store {
  return {
    db: local.db,
    nodes: mirror.nodes,
    instances: mirror.instances,
    transactions: mirror.transactions,
    changes: mirror.changes,
    credentials: mirror.credentials,
    get uploads() {
      return local.uploads;
    },
    bulkLoads: local.bulkLoads,
    scheduledLoads: local.scheduledLoads,
    keyHolders: mirror.keyHolders,
    workbooks: local.workbooks,
    workbookPlan: local.workbookPlan,
    workbookOutcomes: local.workbookOutcomes,
    workbookPushes: local.workbookPushes,
    mappings: local.mappings,
    reverts: local.reverts,
    now: local.now,
    statement: (sql) => mirror.statement(sql),
  };
}

/**
 * A mirror's read-only store, opened once per file and kept while the file is the same one (a
 * whole pull puts a new file in its place: then it is opened again). As the job workers' own
 * connections: SQLite's cache, no memory map.
 */
const opened = new Map<string, { inode: number; store: Store }>();

export function mirrorStore(file: string): Store {
  const inode = statSync(file).ino;
  const held = opened.get(file);
  if (held?.inode === inode) return held.store;
  if (held?.store.db.open) held.store.db.close();
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('mmap_size = 0');
  db.pragma('cache_size = -8192');
  const store = createStore(db, () => isoMicrosAt(Date.now()), null);
  opened.set(file, { inode, store });
  return store;
}
