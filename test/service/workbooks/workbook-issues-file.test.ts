import * as ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookIssueList } from '../../../main/service/contract/workbook-api';
import { compactWorkbook } from '../bulk-validate-helpers';
import { BASIC, openTestService, PARIS, type TestService } from '../helpers';
import { stage } from './workbook-helpers';

/**
 * "Download issues" (issue 32, point 7): GET .../issues/?format=csv|xlsx answers every issue of
 * the workbook as a report, one line per issue, as the issue list has them; CSV opens in Excel
 * with its accents (a byte-order mark) and never as a formula; the two saves of the workbook go
 * under two names.
 */
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

const HEADER = ['Hierarchy Node', 'Directory Number', 'Alerting Name'];

describe("a workbook's issues as a file", () => {
  it('lists every issue in CSV and in .xlsx, as the issue list does', async () => {
    const lines = [
      [PARIS, 'not a number', 'Réception'],
      [PARIS, '=1+2', 'Standard'],
      [PARIS, '+33160000900', 'Bureau, 2e étage'],
    ];
    const { info } = await stage(t, await compactWorkbook('LineRelation', HEADER, lines), PARIS);
    const list = (await t.get(`/workstation/workbooks/${info.id}/issues/`)).body as WorkbookIssueList;
    expect(list.total).toBeGreaterThanOrEqual(2);

    const csv = await t.get(`/workstation/workbooks/${info.id}/issues/?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="${info.name.replace(/\.xlsx$/, '')} issues.csv"`);
    expect(csv.text.startsWith('\uFEFFSheet,Row,Column,Severity,Code,Message\r\n')).toBe(true);
    const body = csv.text.trim().split('\r\n').slice(1);
    expect(body).toHaveLength(list.total);
    expect(body.some((line) => line.startsWith('LineRelation,2,B,error,'))).toBe(true);
    // Nothing in the report starts like a formula a spreadsheet would run.
    expect(body.every((line) => line.split(',').every((cell) => !/^"?[=+@]/.test(cell) || /^"?'/.test(cell)))).toBe(true);

    const xlsx = await t.service.handle({
      method: 'GET',
      url: `/workstation/workbooks/${info.id}/issues/?format=xlsx`,
      headers: { authorization: BASIC },
    });
    expect(xlsx.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(xlsx.body as Uint8Array) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(list.total + 1);
    expect(sheet.getRow(1).values).toEqual([undefined, 'Sheet', 'Row', 'Column', 'Severity', 'Code', 'Message']);
    const refused = await t.get(`/workstation/workbooks/${info.id}/issues/?format=pdf`);
    expect([refused.status, refused.body.code]).toEqual([400, 'bad-parameter']);
  });

  it('saves the workbook and the workbook with its issues under two names', async () => {
    const { info } = await stage(t, await compactWorkbook('LineRelation', HEADER, [[PARIS, 'bad', 'X']]), PARIS);
    const plain = await t.get(`/workstation/workbooks/${info.id}/file/`);
    const withIssues = await t.get(`/workstation/workbooks/${info.id}/file/?issues=true`);
    const base = info.name.replace(/\.xlsx$/, '');
    expect(plain.headers['content-disposition']).toBe(`attachment; filename="${base}.xlsx"`);
    expect(withIssues.headers['content-disposition']).toBe(`attachment; filename="${base} with issues.xlsx"`);
  });
});
