import type { Store } from '../domain/store';
import type { RevisionRecord, WorkbookRecord } from '../store/workbooks-repo';

/**
 * A mapping changed on a workbook whose rows were made by an earlier one (issue "Customer sheets
 * in any shape", point 4) is a revision of its own that Undo takes back, with every edit made
 * before it: the rows as they stood are never rewritten. They stay where they are, in their own
 * workbook record, with their history and mapping, put on a shelf (a record with a hidden id);
 * the new rows are staged into a new record that takes the workbook's id. Undo and redo swap the
 * two ids back and forth (one transaction, whatever the size of the rows), each record keeping
 * its place in its own history. A shelf lives as long as a revision can reach it: deleting the
 * workbook deletes its shelves, and a new edit after an undone change of mapping deletes the
 * shelf that change made, as it drops any undone edit.
 */

/** A shelf's id: never listed, never found by an id a client sends. */
export const SHELF_PREFIX = 'shelf:';
export const isShelf = (record: Pick<WorkbookRecord, 'id'>): boolean => record.id.startsWith(SHELF_PREFIX);

export const REMAP_OP = 'remap';

/** A remap revision's body: the record to swap with, where its history's head is then, and whether it is the one before. */
interface RemapLink {
  other: number;
  head: number;
  /** True in the new record's first revision: `other` holds the rows as they were. */
  back: boolean;
}

/** Changes of mapping a workbook keeps to undo: an older one's rows are deleted (each is a whole copy of the rows). */
export const KEPT_SHELVES = 3;

const linkOf = (entry: Pick<RevisionRecord, 'forward'>): RemapLink => JSON.parse(entry.forward) as RemapLink;

/** The two records' ids exchanged: the workbook's id now names `to`. */
function swapIds(store: Store, from: WorkbookRecord, to: WorkbookRecord): void {
  const parked = `${SHELF_PREFIX}swap-${from.wb}`;
  store.workbooks.setId(from.wb, parked);
  store.workbooks.setId(to.wb, from.id);
  store.workbooks.setId(from.wb, to.id);
}

/**
 * Before a workbook is staged anew through a changed mapping: a new record, in the workbook's
 * place and under its id, to stage into; the old one shelved with its rows, its history (a
 * redo at its end leads to the new one) and its mapping. Answers the new record's number.
 */
export function shelveForRemap(store: Store, old: WorkbookRecord, username: string, now: string): number {
  return store.db.transaction(() => {
    const wb = store.workbooks.create({
      id: `${SHELF_PREFIX}new-${old.wb}-${Date.now()}`,
      name: old.name,
      owner: old.owner,
      owner_pkid: old.owner_pkid,
      owner_path: old.owner_path,
      hierarchy_pkid: old.hierarchy_pkid,
      profile_pkid: old.profile_pkid,
      source: old.source,
      state: 'staging',
      revision: store.workbooks.nextRevision(),
      created_at: old.created_at,
      updated_at: now,
    });
    const revision = (seq: number, link: RemapLink): RevisionRecord => {
      const body = JSON.stringify(link);
      return { seq, op: REMAP_OP, summary: 'Changed the mapping', username, at: now, forward: body, backward: body };
    };
    // Undone edits of the old rows can no longer be redone: the change of mapping comes after its head.
    dropRevisionsAfter(store, old.wb, old.head);
    dropOldestShelf(store, old.wb);
    store.workbooks.addRevision(old.wb, revision(old.head + 1, { other: wb, head: 1, back: false }));
    store.workbooks.addRevision(wb, revision(1, { other: old.wb, head: old.head, back: true }));
    store.workbooks.setRevision(wb, store.workbooks.nextRevision(), 1, now);
    const mapping = store.mappings.workbookMapping(old.wb);
    if (mapping) store.mappings.setWorkbookMapping({ ...mapping, wb });
    swapIds(store, old, store.workbooks.getByWb(wb) as WorkbookRecord);
    return wb;
  })();
}

/** The shelves behind a record, nearest first: each change of mapping's rows as they were before it. */
function shelvesBehind(store: Store, wb: number): number[] {
  const behind: number[] = [];
  for (let at: number | undefined = wb; at !== undefined;) {
    const first = store.workbooks.revision(at, 1);
    const link = first?.op === REMAP_OP ? linkOf(first) : undefined;
    at = link?.back && !behind.includes(link.other) && store.workbooks.getByWb(link.other) ? link.other : undefined;
    if (at !== undefined) behind.push(at);
  }
  return behind;
}

/** With KEPT_SHELVES kept behind `wb` already, the oldest goes (its undo then says so). */
function dropOldestShelf(store: Store, wb: number): void {
  const behind = shelvesBehind(store, wb);
  if (behind.length >= KEPT_SHELVES) store.workbooks.remove(behind[behind.length - 1]);
}

/** Whether the rows a remap revision leads to are still kept. */
export const remapReachable = (store: Store, entry: RevisionRecord): boolean => store.workbooks.getByWb(linkOf(entry).other) !== undefined;

/** The remap revision `entry` of `record` applied as undo (-1) or redo (+1): answers the record that has the workbook's id now. */
export function stepRemap(store: Store, record: WorkbookRecord, entry: RevisionRecord, step: -1 | 1, now: string): WorkbookRecord {
  const link = linkOf(entry);
  return store.db.transaction(() => {
    const other = store.workbooks.getByWb(link.other) as WorkbookRecord;
    // The record left keeps its place in its own history: on the way back it is where it was.
    store.workbooks.setRevision(record.wb, store.workbooks.nextRevision(), record.head + step, now);
    store.workbooks.setRevision(other.wb, store.workbooks.nextRevision(), link.head, now);
    swapIds(store, record, other);
    return store.workbooks.getByWb(other.wb) as WorkbookRecord;
  })();
}

/**
 * A change of mapping that could not be staged (or was cut by a restart): the rows as they were
 * take the workbook's id again, at the head of their history, and the new record is deleted.
 * Answers the record restored, or undefined when `wb` is no such new record.
 */
export function restoreBeforeRemap(store: Store, wb: number): WorkbookRecord | undefined {
  const first = store.workbooks.revision(wb, 1);
  if (first?.op !== REMAP_OP || !linkOf(first).back) return undefined;
  const current = store.workbooks.getByWb(wb) as WorkbookRecord;
  const old = store.workbooks.getByWb(linkOf(first).other);
  if (!old || isShelf(current)) return undefined;
  return store.db.transaction(() => {
    swapIds(store, current, old);
    // The change of mapping is no revision of the old rows any more.
    store.workbooks.dropRevisionsAfter(old.wb, old.head);
    store.workbooks.remove(wb);
    return store.workbooks.getByWb(old.wb) as WorkbookRecord;
  })();
}

/** Revisions after `head` dropped (a new edit after undos), with the shelves only they reached. */
export function dropRevisionsAfter(store: Store, wb: number, head: number): void {
  for (const entry of store.workbooks.remapsAfter(wb, head)) {
    const link = linkOf(entry);
    if (!link.back) removeForward(store, link.other);
  }
  store.workbooks.dropRevisionsAfter(wb, head);
}

/** A shelf made by a change of mapping, and those made by changes after it. */
function removeForward(store: Store, wb: number): void {
  for (const entry of store.workbooks.remapsAfter(wb, 0)) {
    const link = linkOf(entry);
    if (!link.back) removeForward(store, link.other);
  }
  store.workbooks.remove(wb);
}

/** The workbook deleted with every shelf its history reaches, back and forward. */
export function removeWithShelves(store: Store, wb: number): void {
  const seen = new Set<number>([wb]);
  const queue = [wb];
  while (queue.length > 0) {
    const at = queue.pop() as number;
    for (const entry of store.workbooks.remapsAfter(at, 0)) {
      const { other } = linkOf(entry);
      if (!seen.has(other)) {
        seen.add(other);
        queue.push(other);
      }
    }
  }
  store.db.transaction(() => {
    for (const at of seen) store.workbooks.remove(at);
  })();
}
