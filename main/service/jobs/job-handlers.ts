import type { Store } from '../domain/store';
import type { Db } from '../store/db';
import { notFound } from '../errors';
import type { ParsedSheet } from '../sheets/sheet-types';
import { streamWorkbookBatches } from '../sheets/read-workbook';
import type { ValidationCaller } from '../sheets/validate-context';
import { validateWorkbookFile, type WorkbookValidation } from '../sheets/validate-workbook';
import type { SpooledRow } from '../store/bulk-loads-repo';
import type { ExportJob, WrittenExport } from '../sheets/export-job';
import { stageFile, type StageChunk, type StageMapping } from '../workbooks/stage-file';
import { readMapping, type MappingFile } from '../mapping/mapping-file';
import { mappingPlaces } from '../mapping/mapping-places';
import { previewMapping, type MappingPreview } from '../mapping/apply-mapping';
import { placeFactsOf } from '../mapping/place-facts';
import { proposeWorkbook, type WorkbookProposal } from '../mapping/propose-workbook';
import { validateFull, validateIncremental, type SheetIssues } from '../workbooks/staged-revalidate';
import type { FullOutcome, RowOutcome } from '../workbooks/staged-validator';
import { diffKeyIndex, type KeyIndexDiff } from '../workbooks/workbook-key-index';
import { checkedAgainst, mirrorStore } from '../workbooks/mirror-checks';
import { stageRevert, type RevertStageInput, type RevertStageResult } from '../revert/revert-sheets';

/**
 * The heavy jobs, as plain functions of a store and an input: a worker thread runs them on its
 * own read-only connection (job-worker.ts), and the service runs the same functions on its own
 * thread where no worker script exists (tests that run the TypeScript sources). Inputs, chunks
 * and results cross threads, so they are plain data.
 */
export interface JobContext {
  store: Store;
  /** A second read connection, for a statement iterated while the store answers look-ups. */
  cursor(): Db;
  /**
   * True on a worker, whose connection is the job's alone; false where the job shares the
   * service's connection (no worker script), which must never hold a transaction across awaits.
   */
  ownConnection: boolean;
  /** Hands a part of the result over while the job goes on; resolves when there is room for more. */
  send(chunk: unknown): Promise<void>;
}

export interface ReadLoadInput {
  path: string;
  fileName: string;
}

export interface ReadLoadChunk {
  rows: SpooledRow[];
}

export interface ReadLoadResult {
  sheets: ParsedSheet[];
  total: number;
}

export interface ValidateInput {
  path: string;
  fileName: string;
  caller: ValidationCaller;
  nodePkid: string;
}

/** Rows handed over at a time: big enough to amortise a message, small enough to bound memory. */
const ROWS_PER_CHUNK = 500;

/** Reads a workbook into spool rows, checking the whole file on the way (headers, limits). */
async function readLoad(ctx: JobContext, input: ReadLoadInput): Promise<ReadLoadResult> {
  const sheets: ParsedSheet[] = [];
  let rows: SpooledRow[] = [];
  let seq = 0;
  for await (const events of streamWorkbookBatches(input.path, input.fileName)) {
    for (const event of events) {
      if (event.type === 'sheet') sheets.push({ ...event.sheet, rows: [] });
      if (event.type !== 'row') continue;
      rows.push({ seq, sheet: sheets.length - 1, row: JSON.stringify(event.row) });
      seq += 1;
      if (rows.length >= ROWS_PER_CHUNK) {
        await ctx.send({ rows } satisfies ReadLoadChunk);
        rows = [];
      }
    }
  }
  if (rows.length > 0) await ctx.send({ rows } satisfies ReadLoadChunk);
  return { sheets, total: seq };
}

/**
 * Runs a job's reads in one read transaction of the worker's own connection: every row is
 * checked against the same state of the store, and the look-ups (three a row) no longer each
 * open a read transaction of their own, which cost about half of each one.
 */
async function inOneSnapshot<T>(ctx: JobContext, job: () => Promise<T>, also?: Store): Promise<T> {
  if (!ctx.ownConnection) return job();
  // A profile's mirror is read in a snapshot of its own too: the checks of every row see one state of it.
  const dbs = also ? [ctx.store.db, also.db] : [ctx.store.db];
  for (const db of dbs) db.exec('BEGIN');
  try {
    return await job();
  } finally {
    for (const db of dbs) if (db.inTransaction) db.exec('COMMIT');
  }
}

/** The validation's answer as JSON bytes, moved to the service's thread rather than copied. */
export interface ValidateResult {
  bytes: Uint8Array;
}

async function validate(ctx: JobContext, input: ValidateInput): Promise<ValidateResult> {
  const node = ctx.store.nodes.get(input.nodePkid);
  if (!node) throw notFound('The hierarchy node of this validation no longer exists.');
  const answer: WorkbookValidation = await inOneSnapshot(ctx, () =>
    validateWorkbookFile(ctx.store, input.caller, node, input.path, input.fileName),
  );
  // Serialised here: copying 100,000 row predictions between threads as objects took 0.7 s of
  // a 5 s validation, and the service's thread would then have stringified them again.
  return { bytes: Buffer.from(JSON.stringify(answer)) };
}

async function exportInstances(ctx: JobContext, input: ExportJob): Promise<WrittenExport> {
  // Loaded on first use: exceljs (its writer and its dependencies) took ~100 ms of every job
  // worker's start, validations and loads included, which never write a workbook.
  const { writeExport } = await import('../sheets/export-job');
  return writeExport(ctx.store, ctx.cursor(), input);
}

export interface StageFileInput {
  path: string;
  fileName: string;
  /** A customer's sheet staged through its mapping, with the places of the workbook's node (workbook-mapping.ts). */
  mapped?: { mapping: MappingFile; nodePkid: string };
}

async function stageWorkbookFile(ctx: JobContext, input: StageFileInput): Promise<{ total: number }> {
  let mapped: StageMapping | undefined;
  if (input.mapped) {
    const { mapping, model } = readMapping(input.mapped.mapping);
    const node = ctx.store.nodes.get(input.mapped.nodePkid);
    if (!node) throw notFound('The hierarchy node of this workbook no longer exists.');
    mapped = { mapping, model, places: mappingPlaces(placeFactsOf(ctx.store.db, node)) };
  }
  return { total: await stageFile(input.path, input.fileName, (chunk: StageChunk) => ctx.send(chunk), mapped) };
}

/** A staged workbook's validation: whole (`changed` absent) or of the rows an edit can affect. */
export interface WorkbookValidateInput {
  wb: number;
  caller: ValidationCaller;
  nodePkid: string;
  changed?: number[];
  goneWrites?: string[];
  /** A plan's full validation: each outcome also carries its row's plan entry. */
  plan?: boolean;
  /** The stored key index is the keys of the stored outcomes (keys_current): its difference can be found row by row. */
  keysByRow?: boolean;
  /** A remote profile's mirror to check against instead of the workspace's own store (its workbook rows stay here). */
  mirrorFile?: string;
}

export interface WorkbookOutcomesChunk {
  outcomes: FullOutcome[];
}

async function validateStaged(
  ctx: JobContext,
  input: WorkbookValidateInput,
): Promise<{ sheets: SheetIssues[] | null; outcomes: RowOutcome[]; keys?: KeyIndexDiff }> {
  const mirror = input.mirrorFile === undefined ? undefined : mirrorStore(input.mirrorFile);
  const store = mirror ? checkedAgainst(ctx.store, mirror) : ctx.store;
  const node = store.nodes.get(input.nodePkid);
  const workbook = ctx.store.workbooks.getByWb(input.wb);
  if (!node || !workbook) throw notFound('The workbook or its hierarchy node no longer exists.');
  return inOneSnapshot(
    ctx,
    async () => {
      if (input.changed) {
        return { sheets: null, outcomes: validateIncremental(store, workbook, input.caller, node, input.changed, input.goneWrites) };
      }
      const { sheets, keys } = await validateFull(
        store,
        workbook,
        input.caller,
        node,
        (outcomes) => ctx.send({ outcomes } satisfies WorkbookOutcomesChunk),
        { planning: input.plan === true, slimSame: true, keysByRow: input.keysByRow === true, checkFile: input.mirrorFile },
      );
      // The index's difference is worked out here, on the job's own connection: the service only writes it.
      return { sheets, outcomes: [], keys: 'diff' in keys ? keys.diff : diffKeyIndex(ctx.store, input.wb, keys.whole) };
    },
    mirror,
  );
}

export interface ProposeMappingInput {
  path: string;
  fileName: string;
}

/** A customer's sheet read from a sample of its rows (mapping/propose-workbook.ts): what each column may be. */
async function proposeMapping(_ctx: JobContext, input: ProposeMappingInput): Promise<WorkbookProposal> {
  return proposeWorkbook(input.path, input.fileName);
}

export interface PreviewMappingInput {
  path: string;
  fileName: string;
  mapping: MappingFile;
  nodePkid: string;
}

/** The first rows of a customer's sheet as a mapping makes them, transforms applied, before it is confirmed. */
async function previewMappingJob(ctx: JobContext, input: PreviewMappingInput): Promise<MappingPreview> {
  const { mapping, model } = readMapping(input.mapping);
  const node = ctx.store.nodes.get(input.nodePkid);
  if (!node) throw notFound('The hierarchy node of this workbook no longer exists.');
  return previewMapping(input.path, input.fileName, mapping, model, mappingPlaces(placeFactsOf(ctx.store.db, node)));
}

/** The revert of a finished load as a staged workbook's sheets (revert/revert-sheets.ts), from one state of the store. */
async function revertStage(ctx: JobContext, input: RevertStageInput): Promise<RevertStageResult> {
  return inOneSnapshot(ctx, () => stageRevert(ctx.store, input, (chunk) => ctx.send(chunk)));
}

export const JOB_HANDLERS = {
  'read-load': readLoad,
  validate,
  export: exportInstances,
  'stage-file': stageWorkbookFile,
  'validate-workbook': validateStaged,
  'propose-mapping': proposeMapping,
  'preview-mapping': previewMappingJob,
  'revert-stage': revertStage,
} as const;

export type JobKind = keyof typeof JOB_HANDLERS;
export type JobInput<K extends JobKind> = Parameters<(typeof JOB_HANDLERS)[K]>[1];
export type JobOutput<K extends JobKind> = Awaited<ReturnType<(typeof JOB_HANDLERS)[K]>>;
