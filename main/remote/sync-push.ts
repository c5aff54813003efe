import { randomUUID } from 'node:crypto';
import { isJsonObject, type JsonObject } from '../service/api-types';
import type { PushChange, SyncPullAnswer, SyncPushAnswer } from '../service/contract/workstation-api';
import type { Store } from '../service/domain/store';
import { ApiError } from '../service/errors';
import type { PushRecord } from '../service/store/workbook-pushes-repo';
import type { PlanRecord } from '../service/store/workbook-runs-repo';
import type { WorkbookRecord } from '../service/store/workbooks-repo';
import { firstRowOf, rowNumberOf } from '../service/workbooks/staged-sheet';
import type { StagedWorkbooks, Who } from '../service/workbooks/staged-workbooks';
import type { WorkbookRuns } from '../service/workbooks/workbook-runs';
import { saveWorkbook } from '../service/workbooks/workbook-save';
import { childrenOf } from './remote-transactions';
import { objectOf, textOf } from './json-fields';

/**
 * `sync push`: a staged workbook that targets a remote profile, loaded on that remote through the
 * spec's own API, exactly once.
 *
 * 1. The mirror is refreshed (a pull of what changed) and the workbook planned again against it:
 *    rows whose plan changed since the last one (a number taken meanwhile, a target modified or
 *    deleted) are listed; conflicts and errors are not pushed.
 * 2. The rows to load (added, modified, deleted, and not loaded by an earlier push) are written as
 *    one .xlsx in the workbook's layout, named after the push (`workstation-push-<id>.xlsx`),
 *    uploaded, and loaded by one bulk load with nowait, which the push follows. One bulk load
 *    rather than a request a row: the remote then runs the rows as it runs any load (one parent,
 *    a sub-transaction a row, its own recovery after a restart), the push costs two requests and
 *    a poll instead of one round trip a row, and the load has one identity the remote keeps.
 * 3. That identity: the remote's parent transaction names the file in its detail from the moment
 *    it is submitted. A push records each step before the next (prepared, uploaded, submitting,
 *    submitted, done); run again after any interruption (the workstation killed, the network lost, the remote
 *    restarted), it resumes the unfinished push, and before it submits anything it looks for its
 *    own load on the remote by that name. A row is never loaded twice.
 * 4. Each row's remote outcome (status, the remote's sub-transaction id, message, pkid) is written
 *    back to the workbook's row; rows the remote never ran (its load stopped) stay to push again.
 */
export interface RemoteCalls {
  get(path: string, query: Record<string, string>): Promise<{ status: number; body: unknown }>;
  postJson(path: string, query: Record<string, string>, body: unknown): Promise<{ status: number; body: unknown }>;
  upload(path: string, query: Record<string, string>, fileName: string, bytes: Uint8Array): Promise<{ status: number; body: unknown }>;
}

export interface PushDeps {
  store: Store;
  books: StagedWorkbooks;
  runs: WorkbookRuns;
  remote: RemoteCalls;
  /** Refreshes the profile's mirror (a pull of what changed). */
  pull(): Promise<SyncPullAnswer>;
  now(): string;
  profileName: string;
  onProgress?: (text: string) => void;
  /** How often the remote's load is polled. */
  pollMs?: number;
}

const LOADING = new Set(['add', 'modify', 'delete']);
const UNFINISHED = new Set(['Queued', 'In Progress', 'Processing']);
const ROW_DETAIL = /^Row (\d+) of sheet '(.*?)'/;
/**
 * How long a push resumed in state `submitting` looks for the load its stopped run may have sent:
 * a request that left before the process went reaches the remote, which records its transaction
 * at once, within this.
 */
const IN_FLIGHT_MS = 5000;
/** Sub-transactions read at once for the pkids of added rows. */
const READS_IN_FLIGHT = 8;

function refused(what: string, answer: { status: number; body: unknown }): ApiError {
  const said = textOf(answer.body, 'message') ?? `HTTP ${answer.status}`;
  return new ApiError(502, 'remote-refused', `The remote refused ${what}: ${said}`);
}

export const pushFileName = (pushId: string): string => `workstation-push-${pushId}.xlsx`;

export async function pushWorkbook(deps: PushDeps, who: Who, id: string): Promise<SyncPushAnswer> {
  const { store, books } = deps;
  let record = books.find(who, id);
  let push = store.workbookPushes.unfinished(record.wb);
  const resumed = push !== undefined;
  let changed: PushChange[] = [];
  let written: Uint8Array | undefined;
  if (!push) {
    const prepared = await prepare(deps, who, record);
    changed = prepared.changed;
    push = prepared.push;
    written = prepared.file;
    record = books.find(who, id);
    if (!push) return answer(deps, record, undefined, resumed, changed);
  }
  const node = record.hierarchy_pkid;
  if (push.state === 'prepared') {
    deps.onProgress?.(`uploading ${push.file_name}`);
    const bytes = written ?? (await saveWorkbook(store, record, false, new Set(rowsOf(push).map(([rowId]) => rowId))));
    const uploaded = await deps.remote.upload('/api/uploadfiles/', { hierarchy: node }, push.file_name, bytes);
    if (uploaded.status !== 200) throw refused(`the upload of ${push.file_name}`, uploaded);
    store.workbookPushes.setState(push.push_id, 'uploaded', deps.now());
    push = { ...push, state: 'uploaded' };
  }
  if (push.state === 'uploaded' || push.state === 'submitting') {
    // Its own load, if an interrupted push submitted it already: then it is followed, not submitted
    // again. A push stopped while submitting may have sent the request a moment before it went:
    // the remote is given a few seconds to show that load before another is submitted.
    const found = await findLoad(deps, node, push.file_name, push.state === 'submitting' ? IN_FLIGHT_MS : 0);
    if (!found) store.workbookPushes.setState(push.push_id, 'submitting', deps.now());
    const transactionId = found ?? (await submit(deps, node, push.file_name));
    deps.onProgress?.(found ? `found its load on the remote: ${transactionId}` : `submitted: ${transactionId}`);
    const submitted: PushRecord = { ...push, state: 'submitted', remote_transaction_id: transactionId };
    store.db.transaction(() => {
      store.workbookPushes.setState(submitted.push_id, 'submitted', deps.now(), transactionId);
      store.workbooks.setLoad(record.wb, transactionId, rowsOf(submitted).length);
      store.workbooks.setState(record.wb, 'loading', null, deps.now());
    })();
    books.emit(record.id);
    push = submitted;
  }
  if (push.state === 'submitted') await settle(deps, record, push);
  return answer(deps, books.find(who, id), store.workbookPushes.last(record.wb), resumed, changed);
}

const rowsOf = (push: PushRecord): [number, string, number][] => JSON.parse(push.rows) as [number, string, number][];

/**
 * Refresh, plan again, and record a new push of the rows to load (none: nothing to push), with
 * the file of those rows when it could be written while the plan ran.
 */
async function prepare(
  deps: PushDeps,
  who: Who,
  record: WorkbookRecord,
): Promise<{ push?: PushRecord; changed: PushChange[]; file?: Uint8Array }> {
  const { store, books, runs } = deps;
  if (record.state === 'loading') throw new ApiError(409, 'workbook-busy', 'The workbook is being loaded: wait for its load to end.');
  const before = planEntries(store, record.wb);
  deps.onProgress?.(`refreshing the mirror of ${deps.profileName}`);
  await deps.pull();
  deps.onProgress?.('planning again against it');
  runs.plan(who, record.id, record.revision);
  // While the plan runs on its worker, this thread writes the file of the rows the last plan
  // would push: most often the new plan chooses the same ones, and the file is ready when it ends
  // (0.35 s of a 10,500-row push's 1 s before its submission). Written again when it does not.
  const guessed = rowsToLoad(store, record.wb, before);
  const ahead = guessed.size > 0 ? saveWorkbook(store, record, false, guessed) : undefined;
  ahead?.catch(() => undefined);
  await books.settled(record.id);
  const planned = books.find(who, record.id);
  if (planned.state !== 'planned' || planned.plan_revision !== planned.revision)
    throw new ApiError(
      409,
      'workbook-not-planned',
      `The workbook could not be planned again (${planned.problem ?? planned.state}): nothing was pushed.`,
    );
  const after = planEntries(store, record.wb);
  const changed = changesSince(store, record.wb, before, after);
  const chosen = rowsToLoad(store, record.wb, after);
  if (chosen.size === 0) return { changed };
  const file = ahead && sameRows(guessed, chosen) ? await ahead : undefined;
  const rows: [number, string, number][] = [];
  for (const sheet of store.workbooks.sheets(record.wb)) {
    if (sheet.skipped) continue;
    let at = firstRowOf(sheet);
    for (const row of store.workbooks.sheetRows(record.wb, sheet.sheet_no)) {
      if (!chosen.has(row.row_id)) continue;
      rows.push([row.row_id, sheet.name, at]);
      at += 1;
    }
  }
  const pushId = randomUUID();
  const push: PushRecord = {
    push_id: pushId,
    wb: record.wb,
    profile_pkid: record.profile_pkid ?? '',
    state: 'prepared',
    file_name: pushFileName(pushId),
    rows: JSON.stringify(rows),
    remote_transaction_id: null,
    created_at: deps.now(),
    updated_at: deps.now(),
  };
  store.workbookPushes.create(push);
  return { push, changed, file };
}

/** The rows a plan loads: added, modified or deleted, and not loaded by an earlier push. */
function rowsToLoad(store: Store, wb: number, plan: Map<number, PlanRecord>): Set<number> {
  const chosen = new Set<number>();
  for (const [rowId, entry] of plan) {
    if (LOADING.has(entry.action) && store.workbookOutcomes.get(wb, rowId)?.status !== 'loaded') chosen.add(rowId);
  }
  return chosen;
}

const sameRows = (a: ReadonlySet<number>, b: ReadonlySet<number>): boolean => a.size === b.size && [...a].every((rowId) => b.has(rowId));

function planEntries(store: Store, wb: number): Map<number, PlanRecord> {
  const entries = new Map<number, PlanRecord>();
  for (let skip = 0; ; skip += 5000) {
    const page = store.workbookPlan.page(wb, skip, 5000);
    for (const entry of page) entries.set(entry.row_id, entry);
    if (page.length < 5000) return entries;
  }
}

/** Rows whose plan the refreshed mirror changed: now in conflict or error, or their target moved on. */
function changesSince(store: Store, wb: number, before: Map<number, PlanRecord>, after: Map<number, PlanRecord>): PushChange[] {
  const changed: PushChange[] = [];
  const sheets = new Map(store.workbooks.sheets(wb).map((sheet) => [sheet.sheet_no, sheet]));
  for (const [rowId, now] of after) {
    const was = before.get(rowId);
    if (!was || (was.action === now.action && was.version === now.version)) continue;
    const row = store.workbooks.row(wb, rowId);
    const sheet = row && sheets.get(row.sheet_no);
    changed.push({
      sheet: sheet?.name ?? '',
      row: sheet && row ? rowNumberOf(sheet, row.idx) : 0,
      row_id: rowId,
      was: was.action,
      now: now.action,
      message: now.message ?? (was.version !== now.version ? 'its target changed on the remote since the last plan' : null),
    });
  }
  return changed;
}

async function findLoad(deps: PushDeps, node: string, fileName: string, withinMs: number): Promise<string | undefined> {
  const until = Date.now() + withinMs;
  for (;;) {
    const found = await findLoadNow(deps, node, fileName);
    if (found || Date.now() >= until) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function findLoadNow(deps: PushDeps, node: string, fileName: string): Promise<string | undefined> {
  const answer = await deps.remote.get('/api/tool/Transaction/', {
    format: 'json',
    hierarchy: node,
    filter_field: 'detail',
    filter_condition: 'contains',
    filter_text: fileName,
    limit: '10',
  });
  if (answer.status !== 200) throw refused('to list its transactions', answer);
  const resources = isJsonObject(answer.body) && Array.isArray(answer.body.resources) ? answer.body.resources : [];
  for (const resource of resources) {
    const data = objectOf(resource, 'data');
    if (textOf(data, 'detail')?.includes(fileName) && textOf(data, 'action') !== undefined) return textOf(data, 'transaction_id');
  }
  return undefined;
}

async function submit(deps: PushDeps, node: string, fileName: string): Promise<string> {
  const answer = await deps.remote.postJson(
    '/api/tool/BulkLoad/',
    { hierarchy: node, method: 'bulkload_spreadsheet', nowait: 'true', format: 'json' },
    { bulkload_file: fileName, execute_immediately: true },
  );
  const transactionId = textOf(answer.body, 'transaction_id');
  if (answer.status >= 300 || !transactionId) throw refused(`the bulk load of ${fileName}`, answer);
  return transactionId;
}

/** Follows the remote's load to its end, then writes each row's outcome back. */
async function settle(deps: PushDeps, record: WorkbookRecord, push: PushRecord): Promise<void> {
  const transactionId = push.remote_transaction_id ?? '';
  let parent: JsonObject | undefined;
  for (;;) {
    const answer = await deps.remote.get(`/api/tool/Transaction/${encodeURIComponent(transactionId)}/`, { format: 'json' });
    if (answer.status !== 200) throw refused(`to read its transaction ${transactionId}`, answer);
    parent = objectOf(answer.body, 'data');
    const status = textOf(parent, 'status') ?? '';
    deps.onProgress?.(`${status}: ${textOf(parent, 'detail') ?? ''}`);
    if (!UNFINISHED.has(status)) break;
    await new Promise((resolve) => setTimeout(resolve, deps.pollMs ?? 250));
  }
  const rows = rowsOf(push);
  const byPlace = new Map(rows.map(([rowId, sheet, at]) => [`${sheet}\u0000${at}`, rowId]));
  const listed = Array.isArray(parent?.sub_transactions) ? parent.sub_transactions.filter(isJsonObject) : [];
  // A remote that bounds a parent's answer (decisions.md: its first 100 and the counts) is read
  // for the rest in pages; one that lists them all names no count.
  const counts = objectOf(parent, 'sub_transaction_counts');
  const total = typeof counts?.total === 'number' ? counts.total : listed.length;
  const children = await childrenOf(deps.remote.get, record.hierarchy_pkid, transactionId, total);
  const subs = listed.length < total && children ? children : listed;
  const outcomes = subs.map((sub, index) => {
    const place = ROW_DETAIL.exec(textOf(sub, 'detail') ?? '');
    const rowId = place ? byPlace.get(`${place[2]}\u0000${place[1]}`) : rows[index]?.[0];
    return { rowId, sub, ok: textOf(sub, 'status') === 'Success' };
  });
  // Added rows' pkids, and failed rows' messages, are in their own sub-transactions: listed a
  // page of 2,000 at a time where the remote lists a parent's children, else read one by one.
  const details = new Map<string, JsonObject | undefined>();
  for (const child of children ?? []) details.set(textOf(child, 'transaction_id') ?? '', child);
  const wanted = children
    ? []
    : outcomes.filter(({ rowId, ok }) => rowId !== undefined && (!ok || deps.store.workbookPlan.get(record.wb, rowId)?.action === 'add'));
  for (let at = 0; at < wanted.length; at += READS_IN_FLIGHT) {
    await Promise.all(
      wanted.slice(at, at + READS_IN_FLIGHT).map(async ({ sub }) => {
        const subId = textOf(sub, 'transaction_id') ?? '';
        const read = await deps.remote.get(`/api/tool/Transaction/${encodeURIComponent(subId)}/`, { format: 'json' });
        details.set(subId, read.status === 200 ? objectOf(read.body, 'data') : undefined);
      }),
    );
  }
  const { store } = deps;
  store.db.transaction(() => {
    for (const { rowId, sub, ok } of outcomes) {
      if (rowId === undefined) continue;
      const subId = textOf(sub, 'transaction_id') ?? '';
      const detail = details.get(subId);
      const plan = store.workbookPlan.get(record.wb, rowId);
      const pkid = textOf(objectOf(detail, 'resource'), 'pkid') || plan?.target_pkid || null;
      const message = ok
        ? (textOf(sub, 'detail') ?? 'loaded')
        : (textOf(detail, 'message') ?? textOf(sub, 'detail') ?? 'failed on the remote');
      store.workbookOutcomes.put(record.wb, { row_id: rowId, status: ok ? 'loaded' : 'failed', transaction_id: subId, message, pkid });
    }
    store.workbookPushes.setState(push.push_id, 'done', deps.now());
    const loaded = outcomes.filter(({ ok, rowId }) => ok && rowId !== undefined).length;
    store.workbooks.setState(record.wb, loaded >= rows.length ? 'loaded' : 'failed', null, deps.now());
  })();
  deps.books.emit(record.id);
}

function answer(
  deps: PushDeps,
  record: WorkbookRecord,
  push: PushRecord | undefined,
  resumed: boolean,
  changed: PushChange[],
): SyncPushAnswer {
  const totals = record.plan_totals ? (JSON.parse(record.plan_totals) as Record<string, number>) : {};
  const counts = deps.store.workbookOutcomes.counts(record.wb);
  const pushed = push ? rowsOf(push).length : 0;
  return {
    workbook: record.id,
    push_id: push?.push_id ?? null,
    remote_transaction_id: push?.remote_transaction_id ?? null,
    resumed,
    pushed,
    loaded: counts.loaded,
    failed: counts.failed,
    conflicts: totals.conflict ?? 0,
    errors: totals.error ?? 0,
    changed_since_plan: changed,
  };
}
