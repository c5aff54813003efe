import type { EventEmitter } from 'node:events';
import type { Store } from '../domain/store';
import type { ReadLoadChunk } from '../jobs/job-handlers';
import type { JobPool } from '../jobs/job-pool';
import type { Caller } from '../domain/guards';
import type { ParsedWorkbook } from '../sheets/sheet-types';
import type { BulkLoadRow } from '../store/bulk-loads-repo';
import { newTransactionId } from '../store/ids';
import type { NodeRow } from '../store/nodes-repo';
import type { UploadRow } from '../store/uploads-repo';
import type { WalCheckpointer } from '../store/wal-checkpointer';
import type { Submitted, TransactionEngine, TxSpec } from '../transactions/engine';
import { loadDetail, LoadRun, stopLoad, type LoadRunDeps, type RowHook } from './load-run';

/**
 * Bulk loads from end to end. `read` has a worker read the workbook (every whole-file check on
 * the way: a bad header refuses the load before any row runs) into the load's spool; `start`
 * opens the parent and runs the rows in batches (load-run.ts); `schedule` keeps a read load
 * waiting for its moment. The workbook is never held whole in memory, and never read twice.
 */
export interface BulkLoadDeps {
  store: Store;
  engine: TransactionEngine;
  pool: JobPool;
  events: EventEmitter;
  now: () => string;
  onInternalError: (error: unknown, reference: string) => void;
  checkpoints: WalCheckpointer;
}

export class BulkLoads {
  /** Loads whose rows are running, by parent transaction id: what `cancel` can reach. */
  private readonly running = new Map<string, LoadRun>();

  constructor(private readonly deps: BulkLoadDeps) {}

  /** Asks a running load to stop after its current batch; false when no load of that id runs here. */
  cancel(transactionId: string, username: string): boolean {
    const run = this.running.get(transactionId);
    run?.cancel(username);
    return run !== undefined;
  }

  /** Reads the upload into a new load's spool; a refused file leaves nothing behind. */
  async read(caller: Caller, upload: UploadRow, node: NodeRow, path: string): Promise<BulkLoadRow> {
    const { store, pool } = this.deps;
    const loadId = newTransactionId();
    store.bulkLoads.begin({
      load_id: loadId,
      upload_id: upload.id,
      file_name: upload.name,
      hierarchy_pkid: node.pkid,
      username: caller.principal.username,
    });
    const spool = store.db.transaction((chunk: ReadLoadChunk) => store.bulkLoads.spool(loadId, chunk.rows));
    try {
      const read = await pool.run(
        'read-load',
        { path, fileName: upload.name },
        { owner: caller.principal.username, onChunk: (chunk) => spool(chunk as ReadLoadChunk) },
      );
      store.bulkLoads.ready(loadId, JSON.stringify(read.sheets), read.total);
    } catch (error) {
      store.db.transaction(() => store.bulkLoads.remove(loadId))();
      throw error;
    }
    const load = store.bulkLoads.get(loadId);
    if (!load) throw new Error('a bulk load read into the spool is gone');
    return load;
  }

  /**
   * A workbook already parsed (held in the store rather than uploaded, or built by a caller)
   * into a new load's spool, in one commit.
   */
  spoolParsed(username: string, workbook: ParsedWorkbook, node: NodeRow, uploadId = ''): BulkLoadRow {
    const { store } = this.deps;
    const loadId = newTransactionId();
    store.db.transaction(() => {
      store.bulkLoads.begin({ load_id: loadId, upload_id: uploadId, file_name: workbook.fileName, hierarchy_pkid: node.pkid, username });
      let seq = 0;
      workbook.sheets.forEach((sheet, index) => {
        store.bulkLoads.spool(
          loadId,
          sheet.rows.map((row) => ({ seq: seq++, sheet: index, row: JSON.stringify(row) })),
        );
      });
      const sheets = workbook.sheets.map((sheet) => ({ ...sheet, rows: [] }));
      store.bulkLoads.ready(loadId, JSON.stringify(sheets), seq);
    })();
    const load = store.bulkLoads.get(loadId);
    if (!load) throw new Error('a spooled bulk load is gone');
    return load;
  }

  /** Opens the parent (Processing) and queues the rows; `onRow` learns each row's outcome inside its batch. */
  start(caller: Caller, load: BulkLoadRow, node: NodeRow, onRow?: RowHook): Submitted {
    // The parent and the load's `running` state commit together: recovery never finds one without the other.
    this.deps.store.db.transaction(() => {
      this.deps.store.bulkLoads.setState(load.load_id, 'running');
      this.deps.engine.openGroup(load.load_id, parentOf(caller.principal.username, node, load), 'Processing');
    })();
    this.deps.engine.announceGroup(load.load_id, 'Processing', 'tool/BulkLoad');
    return this.run(caller, load, node, onRow);
  }

  /** A read load waits for its moment: its parent is Queued until `startWaiting`. */
  schedule(caller: Caller, load: BulkLoadRow, node: NodeRow, register: (transactionId: string) => void): string {
    this.deps.store.db.transaction(() => {
      this.deps.store.bulkLoads.setState(load.load_id, 'waiting');
      this.deps.engine.openGroup(load.load_id, parentOf(caller.principal.username, node, load), 'Queued');
      register(load.load_id);
    })();
    this.deps.engine.announceGroup(load.load_id, 'Queued', 'tool/BulkLoad');
    return load.load_id;
  }

  /** The moment has come: the rows run with the rights the caller has now. Undefined: the load is gone. */
  startWaiting(caller: Caller, transactionId: string, node: NodeRow): Submitted | undefined {
    const load = this.deps.store.bulkLoads.get(transactionId);
    if (!load) return undefined;
    this.deps.store.db.transaction(() => {
      this.deps.store.bulkLoads.setState(transactionId, 'running');
      this.deps.engine.startWaitingParent(transactionId);
    })();
    this.deps.engine.announceGroup(transactionId, 'Processing', 'tool/BulkLoad');
    return this.run(caller, load, node);
  }

  /**
   * At start, before the engine settles unfinished transactions: a load cut while it was read
   * is forgotten (it had no parent yet); the rows a running load had not reached become failed
   * sub-transactions, so its parent is then settled with every row of its workbook listed.
   */
  recover(): number {
    const { store } = this.deps;
    for (const load of store.bulkLoads.withState('reading')) store.db.transaction(() => store.bulkLoads.remove(load.load_id))();
    let stopped = 0;
    for (const load of store.bulkLoads.withState('running')) {
      stopped += stopLoad(this.runDeps(), load, 'Transaction canceled: the service stopped before this row ran.');
    }
    return stopped;
  }

  private run(caller: Caller, load: BulkLoadRow, node: NodeRow, onRow?: RowHook): Submitted {
    const work = new LoadRun(this.runDeps(), load, caller, node.path, onRow);
    this.running.set(load.load_id, work);
    void work.finished.then(() => this.running.delete(load.load_id));
    this.deps.engine.submitSliced(work);
    return { transactionId: load.load_id, done: work.finished };
  }

  private runDeps(): LoadRunDeps {
    const { store, events, now, onInternalError, checkpoints } = this.deps;
    const journal = { instances: store.instances.journal, changes: store.changes };
    return { store, events, now, onInternalError, checkpoints, db: store.db, repo: store.transactions, journal };
  }
}

export function parentOf(username: string, node: NodeRow, load: Pick<BulkLoadRow, 'total' | 'sheets' | 'file_name'>): Omit<TxSpec, 'run'> {
  const sheets = (JSON.parse(load.sheets) as unknown[]).length;
  return {
    username,
    action: 'Execute Bulk Load',
    detail: loadDetail(0, load.total, sheets, load.file_name),
    modelType: 'tool/BulkLoad',
    hierarchyPkid: node.pkid,
    hierarchyPath: node.path,
    resourcePkid: null,
  };
}
