import type { Check } from './bench-targets';
import type { JobFigures, Server } from './sheets-steps';

/**
 * Part of BENCH_ONLY=sheets (issue 33): the revert of the 100,000-row load the sheets bench ran
 * last. Its plan (POST /workstation/transactions/<id>/revert/ to the workbook planned: the load's
 * rows read, their inverse staged and planned, each row against the store) under 10 s, and its
 * run (the workbook loaded: 100,000 deletes with their lines, numbers and phones put back) at
 * half the load's rate or more, with the event loop and peak RSS measured as for every job.
 */
export const REVERT_TARGETS = { planSeconds: 10, runRatio: 0.5 } as const;

type Measure = (job: () => Promise<void>) => Promise<JobFigures>;

interface WorkbookState {
  state: string;
  revision: number;
  plan: { revision: number; totals: Record<string, number> } | null;
  load: { loaded: number } | null;
}

async function call<T>(server: Server, authorization: string, method: string, path: string, body?: unknown): Promise<T> {
  const reply = await fetch(`${server.origin}${path}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await reply.text();
  if (reply.status >= 300) throw new Error(`${method} ${path} answered ${reply.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Polls the workbook every 200 ms (the spec's advice for long work) until `done`. */
async function until(server: Server, authorization: string, id: string, done: (info: WorkbookState) => boolean): Promise<WorkbookState> {
  for (;;) {
    const { workbook } = await call<{ workbook: WorkbookState }>(server, authorization, 'GET', `/workstation/workbooks/${id}/`);
    if (done(workbook)) return workbook;
    if (workbook.state === 'failed') throw new Error(`the revert workbook failed: ${JSON.stringify(workbook).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface RevertFigures {
  plan: JobFigures;
  run: JobFigures;
  rows: number;
}

export async function revertBench(
  server: Server,
  authorization: string,
  loadId: string,
  rows: number,
  measure: Measure,
): Promise<RevertFigures> {
  let id = '';
  let planned: WorkbookState | undefined;
  const plan = await measure(async () => {
    const answer = await call<{ workbook: { id: string } }>(server, authorization, 'POST', `/workstation/transactions/${loadId}/revert/`);
    id = answer.workbook.id;
    planned = await until(server, authorization, id, (info) => info.state === 'planned' && info.plan?.revision === info.revision);
  });
  if (!planned || planned.plan?.totals.delete !== rows)
    throw new Error(`the revert plan is not ${rows} deletes: ${JSON.stringify(planned?.plan)}`);
  const revision = planned.revision;
  const run = await measure(async () => {
    await call(server, authorization, 'POST', `/workstation/workbooks/${id}/load/`, { revision });
    const done = await until(server, authorization, id, (info) => info.state !== 'loading');
    if (done.load?.loaded !== rows) throw new Error(`the revert reverted ${done.load?.loaded} of ${rows} rows`);
  });
  return { plan, run, rows };
}

export function revertChecks(figures: RevertFigures, loadSeconds: number): Check[] {
  const ratio = loadSeconds / figures.run.seconds;
  return [
    {
      subject: `revert plan of a ${figures.rows.toLocaleString('en-US')}-row load`,
      target: `< ${REVERT_TARGETS.planSeconds} s`,
      measured: `${figures.plan.seconds.toFixed(1)} s`,
      pass: figures.plan.seconds < REVERT_TARGETS.planSeconds,
    },
    {
      subject: 'revert run: rate vs the load',
      target: `>= ${(REVERT_TARGETS.runRatio * 100).toFixed(0)}%`,
      measured: `${Math.round(figures.rows / figures.run.seconds)} vs ${Math.round(figures.rows / loadSeconds)} rows/s (${(ratio * 100).toFixed(1)}%)`,
      pass: ratio >= REVERT_TARGETS.runRatio,
    },
  ];
}
