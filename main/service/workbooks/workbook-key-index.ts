import type { Store } from '../domain/store';
import { TimeSlice } from '../turns';
import { KEY_READ, KEY_WRITE } from '../store/workbooks-repo';
import { effectKey, keyHash, type OverlayEffect } from './tracked-overlay';

/**
 * The index from overlay entries (by hash) to the rows that read or write them, which an edit
 * uses to find the rows it can affect. After an edit it is kept row by row; a full validation
 * (staging, a structural edit, a plan) renews it whole instead: the job's worker gathers every
 * row's keys, sorts them, walks them beside the stored index (on its own connection, in key
 * order) and hands over only the difference, which the service then writes in slices with the
 * event loop free between them.
 *
 * Why: kept row by row during a full validation, each commit of 250 rows dirtied about a thousand
 * random pages of the index (the hashes are random), and writing them was most of the service's
 * time (measured on 100,000 rows: 3.4 s of inserts and 4 s of commits on the service's thread,
 * with the event loop held for seconds by the checkpoints that followed). Reading the stored
 * index back on the service's thread instead cost a scan of it there, and its pages in the
 * service's memory.
 */
export function keysOf(reads: readonly string[], effects: readonly OverlayEffect[]): { reads: number[]; writes: number[] } {
  return { reads: [...new Set(reads.map(keyHash))], writes: [...new Set(effects.map((effect) => keyHash(effectKey(effect))))] };
}

/** Every (key, kind, row) of a workbook, sorted as the table's primary key sorts them. */
export interface SortedKeys {
  keys: Float64Array;
  kinds: Uint8Array;
  rows: Uint32Array;
}

/**
 * Entries appended one by one, typed and grown by doubling: a 100,000-row workbook has about
 * 500,000, which as arrays of numbers held three times the memory, on the job's heap, at the
 * service's peak. Read its arrays up to `count`.
 */
class KeyList {
  keys: Float64Array;
  kinds: Uint8Array;
  rows: Uint32Array;
  count = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(capacity);
    this.kinds = new Uint8Array(capacity);
    this.rows = new Uint32Array(capacity);
  }

  push(key: number, kind: number, row: number): void {
    if (this.count === this.keys.length) {
      const size = this.count * 2;
      this.keys = grown(this.keys, new Float64Array(size));
      this.kinds = grown(this.kinds, new Uint8Array(size));
      this.rows = grown(this.rows, new Uint32Array(size));
    }
    this.keys[this.count] = key;
    this.kinds[this.count] = kind;
    this.rows[this.count] = row;
    this.count += 1;
  }

  /** Copies of the entries (views would carry their whole buffers to another thread). */
  done(): SortedKeys {
    return { keys: this.keys.slice(0, this.count), kinds: this.kinds.slice(0, this.count), rows: this.rows.slice(0, this.count) };
  }
}

export class KeyGatherer {
  private readonly list = new KeyList(1024);

  /** A row's keys, pushed as they come (no set or array per row: a row that names a key twice is deduplicated once sorted). */
  add(rowId: number, reads: readonly string[], effects: readonly OverlayEffect[]): void {
    for (const read of reads) this.list.push(keyHash(read), KEY_READ, rowId);
    for (const effect of effects) this.list.push(keyHash(effectKey(effect)), KEY_WRITE, rowId);
  }

  sorted(): SortedKeys {
    return sortedKeys(this.list);
  }
}

/**
 * The difference a full validation makes to the index, row by row: for a row whose reads or
 * effects changed, the keys it no longer has and those it has now. Used when the stored index is
 * known to be the keys of every row's stored result (`keys_current`, migration 0014): then this
 * is the merge's answer without reading the stored index or sorting every row's keys, which was
 * about a seventh of a plan's work on its worker (a plan right after a validation changes
 * almost no row).
 */
export class KeyDiffGatherer {
  private readonly add = new KeyList(256);
  private readonly drop = new KeyList(256);

  row(rowId: number, before: { reads: string[]; effects: OverlayEffect[] }, after: { reads: string[]; effects: OverlayEffect[] }): void {
    const old = keysOf(before.reads, before.effects);
    const now = keysOf(after.reads, after.effects);
    for (const [from, to, kind] of [
      [old.reads, now.reads, KEY_READ],
      [old.writes, now.writes, KEY_WRITE],
    ] as const) {
      for (const key of from) if (!to.includes(key)) this.drop.push(key, kind, rowId);
      for (const key of to) if (!from.includes(key)) this.add.push(key, kind, rowId);
    }
  }

  /** In key order, as the merge hands it over: the service's writes then go down the index. */
  diff(): KeyIndexDiff {
    return { add: sortedKeys(this.add), drop: sortedKeys(this.drop) };
  }
}

/**
 * A stable least-significant-digit radix sort, 16 bits a pass: row, kind, then the key's 53
 * bits. Measured on 400,000 entries: a comparison sort took about 0.5 s of the job, this 0.1 s.
 */
function sortedKeys(list: KeyList): SortedKeys {
  const { keys, kinds, rows, count } = list;
  let order = new Uint32Array(count);
  for (let at = 0; at < count; at += 1) order[at] = at;
  let next = new Uint32Array(count);
  const starts = new Uint32Array(65_537);
  for (let pass = 0; pass < 7; pass += 1) {
    starts.fill(0);
    for (let at = 0; at < count; at += 1) starts[digitOf(keys, kinds, rows, pass, order[at]) + 1] += 1;
    for (let value = 1; value < starts.length; value += 1) starts[value] += starts[value - 1];
    for (let at = 0; at < count; at += 1) {
      const index = order[at];
      next[starts[digitOf(keys, kinds, rows, pass, index)]++] = index;
    }
    [order, next] = [next, order];
  }
  const out = new KeyList(count);
  for (let at = 0; at < count; at += 1) {
    const from = order[at];
    const last = out.count - 1;
    // A row that names a key twice: once is enough.
    if (last >= 0 && out.keys[last] === keys[from] && out.kinds[last] === kinds[from] && out.rows[last] === rows[from]) continue;
    out.push(keys[from], kinds[from], rows[from]);
  }
  return out.done();
}

/** The 16-bit digit of entry `at` that radix pass `pass` sorts by. */
function digitOf(keys: Float64Array, kinds: Uint8Array, rows: Uint32Array, pass: number, at: number): number {
  switch (pass) {
    case 0:
      return rows[at] & 0xffff;
    case 1:
      return rows[at] >>> 16;
    case 2:
      return kinds[at];
    case 3:
      return keys[at] & 0xffff;
    case 4:
      return (keys[at] >>> 16) & 0xffff;
    case 5:
      return Math.floor(keys[at] / 4294967296) & 0xffff;
    default:
      return Math.floor(keys[at] / 281474976710656);
  }
}

function grown<T extends Float64Array | Uint8Array | Uint32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** Entries written per slice: about 10-20 ms of the service's thread each, on a busy machine. */
const SLICE = 8_000;

/** What a full validation changes in the stored index: entries to insert and to delete, each in key order. */
export interface KeyIndexDiff {
  add: SortedKeys;
  drop: SortedKeys;
}

/**
 * The difference between the stored index of `wb` and `next`: a merge walk of both in key order,
 * reading the stored one a slice at a time. Run by the job on its own connection (its snapshot
 * holds the index as the service has it: nothing writes a workbook's keys while its full
 * validation runs, its edits being serial).
 */
export function diffKeyIndex(store: Store, wb: number, next: SortedKeys): KeyIndexDiff {
  const add = new KeyList(256);
  const drop = new KeyList(256);
  const count = next.keys.length;
  let at = 0;
  // Below the stored entry [key, kind, row]: negative, equal: 0, above: positive.
  const order = (index: number, entry: [number, number, number]): number =>
    next.keys[index] - entry[0] || next.kinds[index] - entry[1] || next.rows[index] - entry[2];
  for (let after: [number, number, number] | undefined; ;) {
    const stored = store.workbooks.keySlice(wb, after, SLICE);
    for (const entry of stored) {
      while (at < count && order(at, entry) < 0) {
        add.push(next.keys[at], next.kinds[at], next.rows[at]);
        at += 1;
      }
      if (at < count && order(at, entry) === 0) at += 1;
      else drop.push(entry[0], entry[1], entry[2]);
    }
    if (stored.length < SLICE) break;
    after = stored[stored.length - 1];
  }
  for (; at < count; at += 1) add.push(next.keys[at], next.kinds[at], next.rows[at]);
  return { add: add.done(), drop: drop.done() };
}

/**
 * Writes a diff into the index in slices of SLICE_MS each, its own commit, with the event loop
 * free between them: 8,000 inserts a slice held the service's thread 130-570 ms once the
 * workspace's pages were cold (a 100,000-row workbook's first validation), as a cpu profile showed.
 */
export async function applyKeyDiff(store: Store, wb: number, diff: KeyIndexDiff): Promise<void> {
  const repo = store.workbooks;
  const slice = new TimeSlice();
  for (const [list, write] of [
    [diff.drop, (at: number) => repo.dropKey(wb, diff.drop.keys[at], diff.drop.kinds[at], diff.drop.rows[at])],
    [diff.add, (at: number) => repo.addKey(wb, diff.add.keys[at], diff.add.kinds[at], diff.add.rows[at])],
  ] as const) {
    for (let at = 0; at < list.keys.length;) {
      store.db.transaction(() => {
        // The clock read every 64 writes: cheap against a write, soon enough against the slice.
        const end = Math.min(list.keys.length, at + SLICE);
        while (at < end) {
          write(at);
          at += 1;
          if (at % 64 === 0 && slice.due()) break;
        }
      })();
      await slice.turn();
    }
  }
}
