import { expect } from 'vitest';
import type { WorkbookEditResult, WorkbookInfo, WorkbookIssueList, WorkbookRowPage } from '../../../main/service/contract/workbook-api';
import { upload, validate } from '../bulk-validate-helpers';
import { BASIC, PARIS, type TestService } from '../helpers';

/** Staged workbooks through the real routes, as the renderer and the CLI use them. */
let uploads = 0;

/** Uploads the bytes, stages them, and waits for staging and the first validation to end. */
export async function stage(t: TestService, bytes: Buffer, hierarchy = PARIS): Promise<{ info: WorkbookInfo; file: string }> {
  const file = `staged-${(uploads += 1)}.xlsx`;
  const uploaded = await upload(t, file, bytes, hierarchy);
  expect(uploaded.status, uploaded.text).toBe(200);
  const created = await t.call('POST', '/workstation/workbooks/', { from: 'upload', file, hierarchy });
  expect(created.status, created.text).toBe(202);
  const info = await settled(t, (created.body as { workbook: WorkbookInfo }).workbook.id);
  return { info, file };
}

export async function settled(t: TestService, id: string): Promise<WorkbookInfo> {
  await t.service.workbooks.settled(id);
  const reply = await t.call('GET', `/workstation/workbooks/${id}/`);
  expect(reply.status, reply.text).toBe(200);
  return (reply.body as { workbook: WorkbookInfo }).workbook;
}

export async function edit(t: TestService, id: string, revision: number, body: unknown): Promise<WorkbookEditResult> {
  const reply = await t.call('POST', `/workstation/workbooks/${id}/edits/`, { revision, edit: body });
  expect(reply.status, reply.text).toBe(200);
  return reply.body as WorkbookEditResult;
}

export async function issues(t: TestService, id: string): Promise<WorkbookIssueList> {
  const reply = await t.call('GET', `/workstation/workbooks/${id}/issues/?limit=100000`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as WorkbookIssueList;
}

export async function rows(t: TestService, id: string, sheet = 0, query = ''): Promise<WorkbookRowPage> {
  const reply = await t.call('GET', `/workstation/workbooks/${id}/sheets/${sheet}/rows/?limit=5000${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as WorkbookRowPage;
}

/** The issues as `method=validate` lists them: sheet name, row, column letters, severity, code, message. */
export type PlainIssue = [string, number, string, string, string, string];

export async function validateFileIssues(t: TestService, bytes: Buffer, hierarchy = PARIS): Promise<PlainIssue[]> {
  const file = `revalidate-${(uploads += 1)}.xlsx`;
  expect((await upload(t, file, bytes, hierarchy)).status).toBe(200);
  const reply = await validate(t, file, hierarchy);
  expect(reply.status, reply.text).toBe(200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the validation answer of decisions.md, read as a client would
  const body = reply.body as any;
  return body.sheets
    .flatMap((sheet: { name: string; issues: { row: number; column: string; severity: string; code: string; message: string }[] }) =>
      sheet.issues.map((issue): PlainIssue => [sheet.name, issue.row, issue.column, issue.severity, issue.code, issue.message]),
    )
    .sort();
}

export function plainIssues(info: WorkbookInfo, list: WorkbookIssueList): PlainIssue[] {
  const names = new Map(info.sheets.map((sheet) => [sheet.index, sheet.name]));
  return list.issues
    .map((issue): PlainIssue => [names.get(issue.sheet) ?? '', issue.row, issue.column, issue.severity, issue.code, issue.message])
    .sort();
}

export async function saved(t: TestService, id: string, query = ''): Promise<Buffer> {
  const reply = await t.service.handle({
    method: 'GET',
    url: `/workstation/workbooks/${id}/file/${query}`,
    headers: { authorization: BASIC },
  });
  expect(reply.status, String(reply.body)).toBe(200);
  return Buffer.from(reply.body);
}
