import { parseArgs } from 'node:util';
import { processOutput, type Output } from './cli-output';
import { planSummary, planTable, sheetName } from './cli-table';
import { Run } from './cli-workbook';
import { defaultDataDir } from './data-dir';
import { createService, type Service } from './service';
import type { RevertAnswer } from './service/contract/revert-api';
import type { WorkbookInfo, WorkbookPlan, WorkbookPlanRow } from './service/contract/workbook-api';

/**
 * `workstation revert <transaction id>`: the revert plan of a finished bulk load, made through
 * the same endpoint as HTTP (POST /workstation/transactions/<id>/revert/) as the store's local
 * admin, printed, and unless --plan-only loaded as a workbook load (README: Reverting a load).
 * Progress goes to stderr, the result (tables, or one JSON document with --json) to stdout.
 */
export const REVERT_USAGE = `usage: workstation revert <transaction id> [--plan-only] [--json] [--data <dir>]

  <transaction id>  a finished bulk load's transaction (a file's, a staged workbook's or a scheduled one)
  --plan-only       make and print the revert plan (a staged workbook, kept), load nothing
  --json            the result as one JSON document on stdout (progress stays on stderr)
  --profile         reverting a push to a remote profile is not available yet (exit 2)
  exit codes        --plan-only: 0 no row in conflict or error, 1 some
                    revert: 0 every row reverted, 1 some failed, in conflict or not run
                    2 (all): bad input or refused (the message says why)`;

const OPTIONS = {
  data: { type: 'string' },
  profile: { type: 'string' },
  json: { type: 'boolean', default: false },
  'plan-only': { type: 'boolean', default: false },
} as const;

const PAGE = 5000;
const POLL_MS = 50;
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Waits until the revert workbook's own plan is made (or its staging failed). */
async function planned(run: Run, id: string): Promise<WorkbookInfo> {
  for (;;) {
    const info = await run.info(id);
    if (info.state === 'failed') throw new Error(info.problem ?? 'the revert plan could not be staged');
    if (info.plan?.revision === info.revision && info.state !== 'planning') return info;
    await sleep(POLL_MS);
  }
}

async function planRows(run: Run, info: WorkbookInfo): Promise<{ rows: WorkbookPlanRow[]; plan: WorkbookPlan }> {
  const rows: WorkbookPlanRow[] = [];
  for (;;) {
    const plan = await run.call<WorkbookPlan>('GET', `/workstation/workbooks/${info.id}/plan/?limit=${PAGE}&skip=${rows.length}`);
    rows.push(...plan.rows);
    if (plan.rows.length === 0 || rows.length >= plan.total) return { rows, plan };
  }
}

async function revert(service: Service, out: Output, id: string, planOnly: boolean, json: boolean): Promise<number> {
  const run = new Run(service, out, 'load');
  run.keep = true;
  const answer = await run.call<RevertAnswer>('POST', `/workstation/transactions/${encodeURIComponent(id)}/revert/`);
  run.id = answer.workbook.id;
  run.note(
    `revert of load ${id}: ${answer.rows} row(s) in workbook ${answer.workbook.id}` +
      (answer.not_revertable > 0
        ? `; ${answer.not_revertable} row(s) of the load cannot be reverted (loaded before reverts were kept)`
        : ''),
  );
  const info = await planned(run, answer.workbook.id);
  const { rows, plan } = await planRows(run, info);
  const flagged = plan.totals.conflict + plan.totals.error;
  const planText = `${planTable(
    info,
    rows.filter((row) => json || row.action === 'conflict' || row.action === 'error'),
  )}${planSummary(plan.totals)}`;
  const planResult = { totals: plan.totals, rows: rows.map((row) => ({ ...row, sheet_name: sheetName(info, row.sheet) })) };
  let code = flagged > 0 ? 1 : 0;
  let result: Record<string, unknown> = { plan: planResult };
  let text = planText;
  if (!planOnly) {
    // Rows in conflict or error run too, and are refused as the loader says: the others revert.
    const loaded = await run.load(info, true, json);
    code = loaded.code;
    result = { plan: planResult, ...(loaded.result as object) };
    text = `${planText}${loaded.text}`;
  }
  const workbook = await run.info(info.id);
  run.note(`revert workbook ${workbook.id} is kept in the store (state ${workbook.state})`);
  if (json) {
    const document = { command: 'revert', transaction_id: id, plan_only: planOnly, exit_code: code, workbook, ...result };
    out.stdout(`${JSON.stringify(document, null, 2)}\n`);
  } else out.stdout(text);
  return code;
}

/** Runs `workstation revert`; answers the exit code. */
export async function revertCommand(args: string[], out: Output = processOutput): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    out.stderr(`workstation revert: ${(error as Error).message}\n${REVERT_USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const fail = (message: string): number => {
    out.stderr(`workstation revert: ${message}\n`);
    if (values.json)
      out.stdout(`${JSON.stringify({ command: 'revert', transaction_id: positionals[0], exit_code: 2, error: message }, null, 2)}\n`);
    return 2;
  };
  if (positionals.length !== 1) return fail(`give one transaction id\n${REVERT_USAGE}`);
  if (values.profile !== undefined)
    return fail(`reverting a push to remote profile ${values.profile} is not available yet: only a load into the Local store is reverted`);
  let service: Service;
  try {
    service = await createService({ dataDir: values.data ?? defaultDataDir() });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  try {
    return await revert(service, out, positionals[0], values['plan-only'], values.json);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  } finally {
    await service.idle();
    service.close();
  }
}
