import type { Store } from '../domain/store';
import type { WalCheckpointer } from '../store/wal-checkpointer';
import { TimeSlice } from '../turns';
import { applyOps, type AppliedOps, type PrimitiveOp } from './workbook-ops';

/**
 * Big edits and their undo in slices (issue 30, finding 3): a 100,000-row paste applied in one
 * transaction held the service's thread 2.4-3.4 s, its undo 4-8 s. Here its ops are cut into
 * parts of at most PART_SIZE rows or cells, each part applied in a commit of its own with the ops
 * that undo it (workbook_pending), and the event loop gets a turn between parts. The edit's last
 * commit writes its one revision and clears the pending parts; one that fails, or a process killed
 * midway, has its parts undone (here, or at the next start), so readers of the store never keep a
 * half edit.
 */

/** Rows or cells of one part: 1-3 ms of the thread on this project's machine (a delete forgets each row's keys and counts). */
export const PART_SIZE = 128;

/** An edit of more rows or cells than this is applied in slices; a smaller one in one commit, as before. */
export const BIG_EDIT = 2_000;

/** How many rows and cells the ops touch. */
export function editSize(ops: readonly PrimitiveOp[]): number {
  let size = 0;
  for (const op of ops) {
    if (op[0] === 'cells') size += op[2].length;
    else if (op[0] === 'insert') size += op[3].length;
    else if (op[0] === 'delete') size += op[2].length;
    else size += 1;
  }
  return size;
}

/** Rows the ops add (inserted ones), for the owner's quota. */
export function addedRows(ops: readonly PrimitiveOp[]): number {
  return ops.reduce((sum, op) => sum + (op[0] === 'insert' ? op[3].length : 0), 0);
}

/**
 * The same ops, those over many rows or cells cut into parts applied one after the other: an
 * insert of n rows at i as inserts of PART_SIZE rows at i, i + PART_SIZE..., a delete or a change
 * of cells as several. Applied in order, the parts do what the op did.
 */
export function splitOps(ops: readonly PrimitiveOp[], size = PART_SIZE): PrimitiveOp[] {
  const parts: PrimitiveOp[] = [];
  for (const op of ops) {
    if (op[0] === 'cells' && op[2].length > size)
      for (let at = 0; at < op[2].length; at += size) parts.push(['cells', op[1], op[2].slice(at, at + size)]);
    else if (op[0] === 'insert' && op[3].length > size)
      for (let at = 0; at < op[3].length; at += size) parts.push(['insert', op[1], op[2] + at, op[3].slice(at, at + size)]);
    else if (op[0] === 'delete' && op[2].length > size)
      for (let at = 0; at < op[2].length; at += size) parts.push(['delete', op[1], op[2].slice(at, at + size)]);
    else parts.push(op);
  }
  return parts;
}

/** What a sliced apply did, with its ops as JSON for the revision (built a part at a time, never one 8 MB stringify). */
export interface SlicedResult {
  applied: AppliedOps;
  forward: string;
  backward: string;
}

/** Applies `ops` in slices; `finish` runs in the last commit (the revision written, the pending parts cleared with it). */
export async function applySliced(
  store: Store,
  wb: number,
  ops: readonly PrimitiveOp[],
  finish: (result: SlicedResult) => void,
  checkpoints?: WalCheckpointer,
): Promise<SlicedResult> {
  const parts = splitOps(ops);
  const applied: AppliedOps = { inverse: [], changedCells: 0, rows: new Set(), structural: false };
  const forward: string[] = [];
  const backward: string[] = [];
  const slice = new TimeSlice();
  store.workbooks.clearPending(wb);
  // Hundreds of commits: SQLite's own checkpoints would run in some of them, on this thread
  // (measured: parts of 0.2 ms at the median, up to 600 ms with a checkpoint); its thread does them.
  checkpoints?.hold();
  try {
    for (const [index, part] of parts.entries()) {
      if (slice.due()) await slice.turn();
      const lagging = checkpoints?.lagging();
      if (lagging) await lagging;
      store.db.transaction(() => {
        const done = applyOps(store, wb, [part]);
        const undo = JSON.stringify(done.inverse);
        store.workbooks.addPending(wb, index, undo);
        applied.changedCells += done.changedCells;
        applied.structural ||= done.structural;
        for (const row of done.rows) applied.rows.add(row);
        if (done.inverse.length > 0) backward.push(undo.slice(1, -1));
      })();
      forward.push(JSON.stringify(part));
    }
    const result: SlicedResult = { applied, forward: `[${forward.join(',')}]`, backward: `[${backward.reverse().join(',')}]` };
    store.db.transaction(() => {
      finish(result);
      store.workbooks.clearPending(wb);
    })();
    return result;
  } catch (error) {
    await undoPending(store, wb);
    throw error;
  } finally {
    checkpoints?.release();
  }
}

/** Undoes the committed parts of an edit that did not end, the last part first, in slices; clears them. */
export async function undoPending(store: Store, wb: number): Promise<void> {
  const slice = new TimeSlice();
  for (const { part, undo } of store.workbooks.pendingOf(wb)) {
    if (slice.due()) await slice.turn();
    store.db.transaction(() => {
      applyOps(store, wb, JSON.parse(undo) as PrimitiveOp[]);
      store.workbooks.dropPending(wb, part);
    })();
  }
  store.workbooks.clearPending(wb);
}

/** At start: every workbook a killed process left in the middle of a big edit is put back at its last revision. */
export function recoverPending(store: Store): number {
  const workbooks = store.workbooks.pendingWorkbooks();
  for (const wb of workbooks)
    store.db.transaction(() => {
      for (const { undo } of store.workbooks.pendingOf(wb)) applyOps(store, wb, JSON.parse(undo) as PrimitiveOp[]);
      store.workbooks.clearPending(wb);
    })();
  return workbooks.length;
}
