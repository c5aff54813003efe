import { expect } from 'vitest';
import type { RevertAnswer, RevertLink } from '../../../main/service/contract/revert-api';
import type { WorkbookInfo, WorkbookLoadAnswer, WorkbookPlan, WorkbookPlanRow } from '../../../main/service/contract/workbook-api';
import type { TestService } from '../helpers';
import { settled, stage } from '../workbooks/workbook-helpers';

/** Loads and reverts through the real routes, as the app and the CLI do. */
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the workbook is in none of the `busy` states. */
export async function until(t: TestService, id: string, busy: readonly string[]): Promise<WorkbookInfo> {
  for (;;) {
    const info = await settled(t, id);
    if (!busy.includes(info.state)) return info;
    await pause(20);
  }
}

/** Stages the file, plans it and loads it whole; answers the load's parent transaction id and the workbook. */
export async function loadFile(t: TestService, bytes: Buffer, hierarchy: string): Promise<{ transactionId: string; info: WorkbookInfo }> {
  const { info } = await stage(t, bytes, hierarchy);
  expect(info.counts.errors, JSON.stringify(info.counts)).toBe(0);
  return loadWorkbook(t, info);
}

export async function loadWorkbook(
  t: TestService,
  staged: WorkbookInfo,
  allowErrors = false,
): Promise<{ transactionId: string; info: WorkbookInfo }> {
  const reply = await t.call('POST', `/workstation/workbooks/${staged.id}/load/`, { revision: staged.revision, allow_errors: allowErrors });
  expect(reply.status, reply.text).toBe(202);
  const answer = reply.body as WorkbookLoadAnswer;
  const info = await until(t, staged.id, ['loading']);
  return { transactionId: answer.transaction_id, info };
}

/** Asks for the revert of a load and waits until its plan is made. */
export async function revertPlan(t: TestService, transactionId: string): Promise<{ answer: RevertAnswer; info: WorkbookInfo }> {
  const reply = await t.call('POST', `/workstation/transactions/${transactionId}/revert/`);
  expect(reply.status, reply.text).toBe(202);
  const answer = reply.body as RevertAnswer;
  for (;;) {
    const info = await until(t, answer.workbook.id, ['staging', 'validating', 'planning']);
    if (info.plan?.revision === info.revision || info.state === 'failed') return { answer, info };
    await pause(20);
  }
}

export async function planRows(t: TestService, id: string): Promise<WorkbookPlanRow[]> {
  const rows: WorkbookPlanRow[] = [];
  for (;;) {
    const reply = await t.get(`/workstation/workbooks/${id}/plan/?limit=5000&skip=${rows.length}`);
    expect(reply.status, reply.text).toBe(200);
    const plan = reply.body as WorkbookPlan;
    rows.push(...plan.rows);
    if (plan.rows.length === 0 || rows.length >= plan.total) return rows;
  }
}

export async function linkOf(t: TestService, transactionId: string): Promise<RevertLink> {
  const reply = await t.get(`/workstation/transactions/${transactionId}/revert/`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as RevertLink;
}

/** Every instance as stored, by pkid: what a revert must give back (its node, data, links, tags, version tag). */
export function instancesOf(t: TestService): Map<string, string> {
  const rows = t.service.store.db
    .prepare<
      [],
      { pkid: string; model_type: string; hierarchy_pkid: string; data: string; links: string; tags: string; version_tag: string | null }
    >('SELECT pkid, model_type, hierarchy_pkid, data, links, tags, version_tag FROM instances ORDER BY pkid')
    .all();
  return new Map(
    rows.map((row) => [
      row.pkid,
      JSON.stringify([
        row.model_type,
        row.hierarchy_pkid,
        JSON.parse(row.data),
        JSON.parse(row.links),
        JSON.parse(row.tags),
        row.version_tag,
      ]),
    ]),
  );
}
