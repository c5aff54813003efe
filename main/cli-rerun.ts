import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Store } from './service/domain/store';
import { WorkbookFilesRepo } from './service/store/workbook-files-repo';
import type { PushState } from './service/store/workbook-pushes-repo';

/**
 * Running a CLI command again is safe and says what it does. `sync push <profile> <file>` and
 * `load <file>` remember which workbook they staged from the file's content (its SHA-256), for
 * that target and --hierarchy. Run again on the same content:
 * - a push left unfinished (the process killed, the network gone) is resumed, never staged anew:
 *   a new workbook of the same rows would find each of them on the remote, "in conflict";
 * - a push that finished with every row it carried loaded is not sent again: "already pushed";
 * - a workbook staged but never pushed (stopped while it refreshed or planned) is pushed;
 * - a load whose rows all loaded is not run again: "already loaded".
 * A workbook edited since it was staged holds another content: the file is then staged again.
 */
export interface FileKey {
  sha256: string;
  /** `load`, or `push:<profile pkid>`. */
  target: string;
  hierarchy: string;
}

export type PushRerun =
  | { kind: 'new' }
  | { kind: 'resume'; workbookId: string; pushId: string; state: PushState }
  | { kind: 'again'; workbookId: string }
  | { kind: 'done'; workbookId: string; transactionId: string; at: string; rows: number };

export type LoadRerun = { kind: 'new' } | { kind: 'done'; workbookId: string; transactionId: string; at: string; rows: number };

/** The key of a file's content for a target; undefined when the file cannot be read (the command then says why, as before). */
export async function fileKeyOf(file: string, target: string, hierarchy: string | undefined): Promise<FileKey | undefined> {
  try {
    const bytes = await readFile(file);
    return { sha256: createHash('sha256').update(bytes).digest('hex'), target, hierarchy: hierarchy ?? '' };
  } catch {
    return undefined;
  }
}

export const pushTarget = (profilePkid: string): string => `push:${profilePkid}`;

/** "2026-11-28 09:40:12" of the service's local ISO time. */
export const timeText = (iso: string): string => iso.replace('T', ' ').slice(0, 19);

/** The workbook staged from this content for this target, as it was staged (not edited since). */
function stagedFrom(store: Store, key: FileKey) {
  const file = new WorkbookFilesRepo(store.db).latest(key.sha256, key.target, key.hierarchy);
  const workbook = file && store.workbooks.getByWb(file.wb);
  return workbook && workbook.revision === file.revision ? workbook : undefined;
}

export function pushRerunOf(store: Store, key: FileKey): PushRerun {
  const workbook = stagedFrom(store, key);
  if (!workbook) return { kind: 'new' };
  const unfinished = store.workbookPushes.unfinished(workbook.wb);
  if (unfinished) return { kind: 'resume', workbookId: workbook.id, pushId: unfinished.push_id, state: unfinished.state };
  const last = store.workbookPushes.last(workbook.wb);
  if (!last) return { kind: 'again', workbookId: workbook.id };
  const carried = (JSON.parse(last.rows) as [number, string, number][]).map(([rowId]) => rowId);
  const loaded = carried.every((rowId) => store.workbookOutcomes.get(workbook.wb, rowId)?.status === 'loaded');
  // Some of its rows failed on the remote: pushing the workbook again sends those, and only those.
  if (!loaded || last.remote_transaction_id === null) return { kind: 'again', workbookId: workbook.id };
  return { kind: 'done', workbookId: workbook.id, transactionId: last.remote_transaction_id, at: last.updated_at, rows: carried.length };
}

export function loadRerunOf(store: Store, key: FileKey): LoadRerun {
  const workbook = stagedFrom(store, key);
  if (!workbook || workbook.state !== 'loaded' || workbook.load_id === null) return { kind: 'new' };
  return { kind: 'done', workbookId: workbook.id, transactionId: workbook.load_id, at: workbook.updated_at, rows: workbook.load_total };
}

/** Remembers that `workbookId` was staged from this content (at its current revision). */
export function rememberFile(store: Store, key: FileKey, workbookId: string): void {
  const workbook = store.workbooks.get(workbookId);
  if (!workbook) return;
  new WorkbookFilesRepo(store.db).record({ wb: workbook.wb, ...key, revision: workbook.revision, created_at: store.now() });
}
