import type { ParsedRow } from '../sheets/sheet-types';
import type { Db } from './db';

/**
 * A bulk load's own state beside its parent transaction (`load_id` is the parent's id): the
 * workbook's sheets, its rows spooled as read, and how many have run. States: `reading` (the
 * worker is still spooling; no parent yet), `waiting` (scheduled), `running`.
 */
export type BulkLoadState = 'reading' | 'waiting' | 'running';

export interface BulkLoadRow {
  load_id: string;
  upload_id: string;
  file_name: string;
  hierarchy_pkid: string;
  username: string;
  /** JSON: the sheets (name, model type, directive), in load order. */
  sheets: string;
  total: number;
  done: number;
  ok: number;
  state: BulkLoadState;
}

export interface SpooledRow {
  seq: number;
  sheet: number;
  /** JSON of the ParsedRow. */
  row: string;
}

/**
 * What the spool holds: a run of rows of one sheet, `seq` the load-order number of its first.
 * One entry for many rows: an entry per row cost a load 4 µs of its 120 a row (the insert as
 * read, the select and the delete as run). `rows` is a JSON array of ParsedRows, or one
 * ParsedRow for an entry spooled before entries held runs.
 */
export interface SpoolEntry {
  seq: number;
  sheet: number;
  rows: string;
}

/** Rows a spool entry holds at most: a batch (about 20 ms) runs one or two. */
const ROWS_PER_ENTRY = 100;

/** The rows of an entry, each with its load-order number. */
export function rowsOf(entry: SpoolEntry): { seq: number; sheet: number; row: ParsedRow }[] {
  const parsed = JSON.parse(entry.rows) as ParsedRow | ParsedRow[];
  const rows = Array.isArray(parsed) ? parsed : [parsed];
  return rows.map((row, index) => ({ seq: entry.seq + index, sheet: entry.sheet, row }));
}

export type NewBulkLoad = Pick<BulkLoadRow, 'load_id' | 'upload_id' | 'file_name' | 'hierarchy_pkid' | 'username'>;

export class BulkLoadsRepo {
  private readonly byId;
  private readonly insertLoad;
  private readonly insertRow;
  private readonly nextRows;
  private readonly dropThrough;
  private readonly progressRow;
  private readonly readyRow;
  private readonly stateRow;
  private readonly dropRows;
  private readonly dropLoad;
  private readonly inState;

  constructor(db: Db) {
    this.byId = db.prepare<[string], BulkLoadRow>('SELECT * FROM bulk_loads WHERE load_id = ?');
    this.insertLoad = db.prepare(
      `INSERT INTO bulk_loads (load_id, upload_id, file_name, hierarchy_pkid, username, state)
       VALUES (@load_id, @upload_id, @file_name, @hierarchy_pkid, @username, 'reading')`,
    );
    this.insertRow = db.prepare('INSERT INTO bulk_load_rows (load_id, seq, sheet, row) VALUES (?, ?, ?, ?)');
    this.nextRows = db.prepare<[string, number, number], SpoolEntry>(
      'SELECT seq, sheet, row AS rows FROM bulk_load_rows WHERE load_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    );
    this.dropThrough = db.prepare('DELETE FROM bulk_load_rows WHERE load_id = ? AND seq <= ?');
    this.progressRow = db.prepare('UPDATE bulk_loads SET done = ?, ok = ? WHERE load_id = ?');
    this.readyRow = db.prepare('UPDATE bulk_loads SET sheets = ?, total = ?, state = ? WHERE load_id = ?');
    this.stateRow = db.prepare('UPDATE bulk_loads SET state = ? WHERE load_id = ?');
    this.dropRows = db.prepare('DELETE FROM bulk_load_rows WHERE load_id = ?');
    this.dropLoad = db.prepare('DELETE FROM bulk_loads WHERE load_id = ?');
    this.inState = db.prepare<[string], BulkLoadRow>('SELECT * FROM bulk_loads WHERE state = ?');
  }

  get(loadId: string): BulkLoadRow | undefined {
    return this.byId.get(loadId);
  }

  begin(load: NewBulkLoad): void {
    this.insertLoad.run(load);
  }

  /** Rows as the reader hands them over, in load order: runs of one sheet, an entry each. */
  spool(loadId: string, rows: readonly SpooledRow[]): void {
    for (let start = 0; start < rows.length;) {
      let end = start + 1;
      while (end < rows.length && end - start < ROWS_PER_ENTRY && rows[end].sheet === rows[start].sheet) end += 1;
      const run = rows.slice(start, end);
      this.insertRow.run(loadId, run[0].seq, run[0].sheet, `[${run.map((row) => row.row).join(',')}]`);
      start = end;
    }
  }

  /** The workbook was read whole: its sheets and row count are known (still `reading` until its parent opens). */
  ready(loadId: string, sheets: string, total: number): void {
    this.readyRow.run(sheets, total, 'reading', loadId);
  }

  setState(loadId: string, state: BulkLoadState): void {
    this.stateRow.run(state, loadId);
  }

  /** The next entries after the one at `afterSeq`, oldest first. */
  next(loadId: string, afterSeq: number, limit: number): SpoolEntry[] {
    return this.nextRows.all(loadId, afterSeq, limit);
  }

  /**
   * `done` rows have run, `ok` of them well, and every row of the entries up to the one at
   * `entrySeq` (their batch commits with this). An entry whose rows have only partly run stays;
   * its rows before `done` are those that ran.
   */
  ran(loadId: string, entrySeq: number, done: number, ok: number): void {
    this.dropThrough.run(loadId, entrySeq);
    this.progressRow.run(done, ok, loadId);
  }

  /** Forgets a load and whatever of it is still spooled. */
  remove(loadId: string): void {
    this.dropRows.run(loadId);
    this.dropLoad.run(loadId);
  }

  withState(state: BulkLoadState): BulkLoadRow[] {
    return this.inState.all(state);
  }
}
