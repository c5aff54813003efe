import { processOutput, type Output } from './cli-output';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { mappedCopy } from './cli-map';
import { localAdmin, workstationCall } from './cli-remote';
import { fileKeyOf, loadRerunOf, rememberFile, timeText, type FileKey, type LoadRerun } from './cli-rerun';
import { issueTable, loadSummary, loadTable, planSummary, planTable, sheetName, validateSummary, type LoadRowView } from './cli-table';
import { defaultDataDir } from './data-dir';
import { mirrorAge } from './service/contract/mirror-age';
import { createService, type Service } from './service';
import type { LoadProgressEvent } from './service/contract/service-events';
import type {
  WorkbookAnswer,
  WorkbookInfo,
  WorkbookIssue,
  WorkbookIssueList,
  WorkbookLoadAnswer,
  WorkbookPlan,
  WorkbookPlanRow,
  WorkbookRowPage,
  WorkbookState,
} from './service/contract/workbook-api';

/**
 * `workstation validate|plan|load <file.xlsx>`: a workbook staged, then validated, planned or
 * loaded through the same /workstation/workbooks/ endpoints as HTTP and IPC, as the store's local
 * admin (README: Staged workbooks, From the command line). Progress goes to stderr, the result
 * (a table, or one JSON document with --json) to stdout. Exit codes: 0 clean, 1 some rows in
 * error (or failed), 2 the command was refused or could not run.
 */
export const WORKBOOK_USAGE = `usage: workstation validate <file.xlsx> [--hierarchy <path>] [--profile <name>] [--mapping <name or file.json>] [--json] [--data <dir>]
       workstation plan <file.xlsx> [--hierarchy <path>] [--profile <name>] [--mapping <name or file.json>] [--json] [--data <dir>]
       workstation load <file.xlsx> [--hierarchy <path>] [--mapping <name or file.json>] [--json] [--allow-errors] [--data <dir>]

  --hierarchy     the node the workbook loads at where its rows name none (default sys; with
                  --profile, the node of the remote the profile's mirror was pulled from)
  --profile       check against that remote profile's mirror (sync pull), offline; load it there
                  with 'workstation sync push'
  --mapping       a customer's own sheet, read through a mapping file ('workstation map --save') or a mapping
                  saved in the app by name (the one at --hierarchy or above it)
  --json          the result as one JSON document on stdout (progress stays on stderr)
  --allow-errors  load: run the rows validation finds in error too (they fail as the loader says)
  exit codes      validate: 0 no error (warnings allowed), 1 errors
                  plan: 0 no row in error or conflict, 1 some
                  load: 0 every row loaded, 1 some failed, in conflict or not run
  run again       load of a file whose rows all loaded from the same content: says so, runs nothing, exit 0
                  2 (all): bad input or refused (the message says why)`;

export type WorkbookCommand = 'validate' | 'plan' | 'load';
export const WORKBOOK_COMMANDS: readonly string[] = ['validate', 'plan', 'load'];

const OPTIONS = {
  data: { type: 'string' },
  hierarchy: { type: 'string' },
  profile: { type: 'string' },
  json: { type: 'boolean', default: false },
  'allow-errors': { type: 'boolean', default: false },
  mapping: { type: 'string' },
} as const;

const PAGE = 5000;
const ISSUE_PAGE = 100_000;
const POLL_MS = 50;
const PROGRESS_EVERY_MS = 250;

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

export class Run {
  private lastState: string | undefined;
  /** The staged workbook, once the service has answered its id. */
  id: string | undefined;
  /** Kept in the store at the end: a load's outcomes (validate and plan remove theirs). */
  keep = false;
  /** The file's content, remembered with the workbook staged from it so that a load run again finds it (cli-rerun.ts). */
  fileKey: FileKey | undefined;

  constructor(
    private readonly service: Service,
    private readonly out: Output,
    private readonly command: WorkbookCommand | 'push',
    /** A remote profile whose mirror the workbook is checked against. */
    private readonly profile?: string,
  ) {}

  note(text: string): void {
    this.out.stderr(`${text}\n`);
  }

  /** One line per state change of the workbook, whoever saw it first (an event or a poll). */
  state(id: string, state: string): void {
    if (state === this.lastState) return;
    this.lastState = state;
    this.note(`workbook ${id.slice(0, 8)}: ${state}`);
  }

  call<T>(method: string, url: string, body?: unknown): Promise<T> {
    return workstationCall<T>(this.service, method, url, body);
  }

  async upload(file: string, hierarchy: string): Promise<string> {
    if (!/\.xlsx$/i.test(file)) throw new Error(`${file} is not an .xlsx workbook`);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : undefined;
      throw new Error(`cannot read ${file}: ${why ?? (error as Error).message}`);
    }
    const name = basename(file).replace(/["\r\n\\]/g, '_');
    this.note(`uploading ${name} (${bytes.length} bytes) to ${hierarchy}`);
    const boundary = `workstation-cli-${randomBytes(12).toString('hex')}`;
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="uploadedfile"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const answer = await this.service.handleAs(localAdmin(this.service), {
      method: 'POST',
      url: `/api/uploadfiles/?hierarchy=${encodeURIComponent(hierarchy)}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const text = typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body).toString('utf8');
    const parsed = JSON.parse(text) as { message?: string; uploadedfiles?: { name: string }[] };
    if (answer.status >= 400) throw new Error(parsed.message ?? `the upload was refused (HTTP ${answer.status})`);
    const uploaded = parsed.uploadedfiles?.[0]?.name;
    if (!uploaded) throw new Error('the upload stored no file');
    return uploaded;
  }

  async info(id: string): Promise<WorkbookInfo> {
    const { workbook } = await this.call<WorkbookAnswer>('GET', `/workstation/workbooks/${id}/`);
    this.state(id, workbook.state);
    return workbook;
  }

  async stage(file: string, hierarchy: string | undefined): Promise<WorkbookInfo> {
    const body =
      this.profile === undefined
        ? { from: 'upload', file, hierarchy: hierarchy ?? 'sys' }
        : { from: 'upload', file, hierarchy, profile: this.profile };
    const { workbook } = await this.call<WorkbookAnswer>('POST', '/workstation/workbooks/', body);
    this.id = workbook.id;
    this.state(workbook.id, workbook.state);
    await this.service.workbooks.settled(workbook.id);
    const info = await this.info(workbook.id);
    if (info.state === 'failed') throw new Error(info.problem ?? 'the workbook could not be staged');
    const sheets = info.sheets.filter((sheet) => !sheet.skipped);
    this.note(`staged ${info.counts.rows} row(s) in ${sheets.length} sheet(s): ${sheets.map((sheet) => sheet.name).join(', ')}`);
    if (info.profile !== null)
      this.note(
        `checked against the mirror of ${info.profile} pulled at ${info.checked_against ? mirrorAge(info.checked_against, new Date()) : 'an unknown time'}`,
      );
    return info;
  }

  /** Polls the workbook until its state is not `busy` any more. */
  async until(id: string, busy: WorkbookState): Promise<WorkbookInfo> {
    for (;;) {
      const info = await this.info(id);
      if (info.state !== busy) return info;
      await sleep(POLL_MS);
    }
  }

  async validate(info: WorkbookInfo): Promise<{ code: number; result: unknown; text: string }> {
    const issues: WorkbookIssue[] = [];
    let list: WorkbookIssueList;
    do {
      list = await this.call<WorkbookIssueList>(
        'GET',
        `/workstation/workbooks/${info.id}/issues/?limit=${ISSUE_PAGE}&skip=${issues.length}`,
      );
      issues.push(...list.issues);
    } while (list.issues.length > 0 && issues.length < list.total);
    const code = info.counts.errors === 0 ? 0 : 1;
    return {
      code,
      result: {
        counts: info.counts,
        by_code: list.by_code,
        issues: issues.map((issue) => ({ ...issue, sheet_name: sheetName(info, issue.sheet) })),
      },
      text: `${issueTable(info, issues)}${validateSummary(info)}`,
    };
  }

  async plan(staged: WorkbookInfo): Promise<{ code: number; result: unknown; text: string }> {
    await this.call<WorkbookAnswer>('POST', `/workstation/workbooks/${staged.id}/plan/`, { revision: staged.revision });
    const info = await this.until(staged.id, 'planning');
    const rows: WorkbookPlanRow[] = [];
    let plan: WorkbookPlan;
    do {
      plan = await this.call<WorkbookPlan>('GET', `/workstation/workbooks/${info.id}/plan/?limit=${PAGE}&skip=${rows.length}`);
      if (plan.planned_revision !== plan.revision) throw new Error(info.problem ?? `the plan did not complete (state ${info.state})`);
      rows.push(...plan.rows);
    } while (plan.rows.length > 0 && rows.length < plan.total);
    const { totals } = plan;
    return {
      code: totals.error + totals.conflict > 0 ? 1 : 0,
      result: { totals, rows: rows.map((row) => ({ ...row, sheet_name: sheetName(info, row.sheet) })) },
      text: `${planTable(info, rows)}${planSummary(totals)}`,
    };
  }

  async load(staged: WorkbookInfo, allowErrors: boolean, json: boolean): Promise<{ code: number; result: unknown; text: string }> {
    const { errors, rows_with_errors } = staged.counts;
    if (errors > 0 && !allowErrors) {
      throw new Error(
        `the workbook has ${errors} error(s) in ${rows_with_errors} row(s): run 'workstation validate' to see them, or load with --allow-errors`,
      );
    }
    // Listening before the load starts: its first progress events may come before its answer.
    const seen: LoadProgressEvent[] = [];
    let transaction: string | undefined;
    let printedAt = 0;
    let printed = '';
    const onProgress = (event: LoadProgressEvent): void => {
      if (transaction === undefined) seen.push(event);
      else if (event.transaction_id === transaction) {
        const line = `loaded ${event.done}/${event.total} rows: ${event.succeeded} succeeded, ${event.failed} failed`;
        const now = Date.now();
        // At most a few lines a second, the last one always, never the same line twice.
        if (line === printed || (now - printedAt < PROGRESS_EVERY_MS && event.done < event.total)) return;
        printedAt = now;
        printed = line;
        this.note(line);
      }
    };
    this.service.events.on('progress', onProgress);
    try {
      const answer = await this.call<WorkbookLoadAnswer>('POST', `/workstation/workbooks/${staged.id}/load/`, {
        revision: staged.revision,
        rows: 'all',
        allow_errors: allowErrors,
      });
      this.keep = true;
      this.state(staged.id, answer.workbook.state);
      this.note(`loading ${answer.rows} row(s) in transaction ${answer.transaction_id}`);
      transaction = answer.transaction_id;
      seen.splice(0).forEach(onProgress);
      const info = await this.until(staged.id, 'loading');
      // The table shows the rows that did not load; JSON shows them all.
      const rows = await this.loadRows(info, (row) => json || row.outcome?.status !== 'loaded');
      const load = info.load;
      const unfinished = load ? load.failed + load.conflicts + load.not_run : rows.filter((row) => row.outcome?.status !== 'loaded').length;
      return {
        code: unfinished === 0 ? 0 : 1,
        result: { transaction_id: answer.transaction_id, load, rows },
        text: `${loadTable(info, rows)}${loadSummary(load)}`,
      };
    } finally {
      this.service.events.off('progress', onProgress);
    }
  }

  private async loadRows(info: WorkbookInfo, keep: (row: LoadRowView) => boolean): Promise<LoadRowView[]> {
    const rows: LoadRowView[] = [];
    for (const sheet of info.sheets.filter((candidate) => !candidate.skipped)) {
      let skip = 0;
      for (;;) {
        const page = await this.call<WorkbookRowPage>(
          'GET',
          `/workstation/workbooks/${info.id}/sheets/${sheet.index}/rows/?limit=${PAGE}&skip=${skip}`,
        );
        for (const row of page.rows) {
          const view = { sheet: sheet.index, sheet_name: sheet.name, row_id: row.id, row: row.row, outcome: row.outcome ?? null };
          if (keep(view)) rows.push(view);
        }
        skip += page.rows.length;
        if (page.rows.length === 0 || skip >= page.total) break;
      }
    }
    return rows;
  }

  /** Uploads and stages a file: here with the local store's node `sys` for the upload, staged at `hierarchy`. */
  async stageFile(file: string, hierarchy: string | undefined): Promise<WorkbookInfo> {
    const uploaded = await this.upload(file, this.profile === undefined ? (hierarchy ?? 'sys') : 'sys');
    return this.stage(uploaded, hierarchy);
  }

  async run(file: string, hierarchy: string | undefined, allowErrors: boolean, json: boolean): Promise<number> {
    const onWorkbook = (event: { id: string; state: string }): void => {
      if (event.id === this.id) this.state(event.id, event.state);
    };
    this.service.events.on('workbook', onWorkbook);
    try {
      const staged = await this.stageFile(file, hierarchy);
      if (this.fileKey) rememberFile(this.service.store, this.fileKey, staged.id);
      const outcome =
        this.command === 'validate'
          ? await this.validate(staged)
          : this.command === 'plan'
            ? await this.plan(staged)
            : await this.load(staged, allowErrors, json);
      const workbook = await this.info(staged.id);
      if (this.keep) this.note(`workbook ${workbook.id} is kept in the store (state ${workbook.state})`);
      if (json) {
        const document = {
          command: this.command,
          file,
          hierarchy: workbook.hierarchy,
          exit_code: outcome.code,
          workbook,
          ...(outcome.result as object),
        };
        this.out.stdout(`${JSON.stringify(document, null, 2)}\n`);
      } else {
        this.out.stdout(outcome.text);
      }
      return outcome.code;
    } finally {
      this.service.events.off('workbook', onWorkbook);
      if (this.id !== undefined && !this.keep) {
        // A check leaves nothing behind; a removal that fails (a plan still running) is not the command's failure.
        await this.call('DELETE', `/workstation/workbooks/${this.id}/`).catch(() => undefined);
      }
    }
  }
}

/** `load` of a file whose rows all loaded from the same content before: exit 0, nothing run. */
function alreadyLoaded(out: Output, file: string, rerun: Extract<LoadRerun, { kind: 'done' }>, json: boolean): number {
  if (json) {
    const document = {
      command: 'load',
      file,
      exit_code: 0,
      already_loaded: true,
      workbook: rerun.workbookId,
      transaction_id: rerun.transactionId,
      loaded_at: rerun.at,
      rows: rerun.rows,
    };
    out.stdout(`${JSON.stringify(document, null, 2)}\n`);
  } else
    out.stdout(
      `${file}: already loaded in transaction ${rerun.transactionId} at ${timeText(rerun.at)} (workbook ${rerun.workbookId}, ${rerun.rows} row(s)); nothing run\n`,
    );
  return 0;
}

/** Runs `workstation validate|plan|load`; answers the exit code. */
export async function workbookCommand(command: WorkbookCommand, args: string[], out: Output = processOutput): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    out.stderr(`workstation ${command}: ${(error as Error).message}\n${WORKBOOK_USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) {
    out.stderr(`workstation ${command}: give one .xlsx file\n${WORKBOOK_USAGE}\n`);
    return 2;
  }
  const fail = (error: unknown): number => {
    const message = error instanceof Error ? error.message : String(error);
    out.stderr(`workstation ${command}: ${message}\n`);
    if (values.json) out.stdout(`${JSON.stringify({ command, file: positionals[0], exit_code: 2, error: message }, null, 2)}\n`);
    return 2;
  };
  let service: Service;
  /** The customer's sheet written through its mapping; messages still name the customer's file. */
  let mapped: string | undefined;
  try {
    // A customer's own sheet: written through its mapping first (cli-map.ts), then run as any workbook.
    if (values.mapping !== undefined) mapped = await mappedCopy(positionals[0], values.mapping, values.hierarchy, values.data);
    service = await createService({ dataDir: values.data ?? defaultDataDir() });
  } catch (error) {
    return fail(error);
  }
  try {
    if (service.generatedAdminPassword) {
      out.stderr(`created user admin at sys with password ${service.generatedAdminPassword} (shown once: keep it)\n`);
    }
    if (command === 'load' && values.profile !== undefined)
      throw new Error(`a workbook for a remote profile is loaded there by 'workstation sync push ${values.profile} <file.xlsx>'`);
    const run = new Run(service, out, command, values.profile);
    if (command === 'load') {
      // The same content loaded whole before: said, and nothing run again (cli-rerun.ts).
      run.fileKey = await fileKeyOf(mapped ?? positionals[0], 'load', values.hierarchy);
      const rerun = run.fileKey ? loadRerunOf(service.store, run.fileKey) : undefined;
      if (rerun?.kind === 'done') return alreadyLoaded(out, positionals[0], rerun, values.json);
    }
    return await run.run(mapped ?? positionals[0], values.hierarchy, values['allow-errors'], values.json);
  } catch (error) {
    return fail(error);
  } finally {
    await service.idle();
    service.close();
  }
}
