import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookInfo } from '../../../main/service/contract/workbook-api';
import { basicAuth, fixture } from '../bulk-validate-helpers';
import { openTestService, PARIS, q, type TestService } from '../helpers';
import { edit, rows, saved, settled, stage } from './workbook-helpers';

/**
 * Edits a client should never get through: too long, outside the sheet, on another revision, on
 * another user's workbook. Each is a clear 4xx and leaves every cell as it was. And the sources
 * a workbook can start from other than a file: a template and an export.
 */
let t: TestService;
let info: WorkbookInfo;
const PARIS_ADMIN = basicAuth('paris.admin', 'paris-admin-pw');

beforeAll(async () => {
  t = await openTestService({ demo: true });
  const made = await t.call('POST', `/api/data/User/${q(PARIS)}`, {
    data: { username: 'paris.admin', role: 'admin', password: 'paris-admin-pw' },
  });
  expect(made.status, made.text).toBe(200);
  ({ info } = await stage(t, fixture('line-relation-libreoffice.xlsx')));
});
afterAll(() => t.close());

const cellsNow = async (id = info.id): Promise<string> => JSON.stringify((await rows(t, id)).rows.map((row) => row.cells));

async function refused(body: unknown, status: number, code: string, headers: Record<string, string> = {}, id = info.id): Promise<void> {
  const before = await cellsNow();
  const current = await settled(t, info.id);
  const reply = await t.call('POST', `/workstation/workbooks/${id}/edits/`, { revision: current.revision, ...(body as object) }, headers);
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body.code).toBe(code);
  expect(await cellsNow()).toBe(before);
  expect((await settled(t, info.id)).revision).toBe(current.revision);
}

describe('hostile edits', () => {
  it('takes a cell of 32,767 characters and refuses one more, changing nothing', async () => {
    const row = (await rows(t, info.id)).rows[0];
    const column = info.sheets[0].columns[4].id;
    const current = await settled(t, info.id);
    const done = await edit(t, info.id, current.revision, {
      op: 'set',
      sheet: 0,
      cells: [{ row_id: row.id, column_id: column, value: 'n'.repeat(32_767) }],
    });
    expect(done.changed).toBe(1);
    await refused(
      { edit: { op: 'set', sheet: 0, cells: [{ row_id: row.id, column_id: column, value: 'n'.repeat(32_768) }] } },
      400,
      'bad-cell',
    );
  });

  it('keeps formula-like text as text, in the store and in the saved file', async () => {
    const row = (await rows(t, info.id)).rows[1];
    const column = info.sheets[0].columns[4].id;
    const current = await settled(t, info.id);
    await edit(t, info.id, current.revision, {
      op: 'set',
      sheet: 0,
      cells: [{ row_id: row.id, column_id: column, value: '=HYPERLINK("http://x","y")' }],
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await saved(t, info.id)) as unknown as ArrayBuffer);
    const cell = workbook.getWorksheet('LineRelation')?.getCell(`E${row.row}`);
    expect(cell?.formula).toBeUndefined();
    expect(cell?.value).toBe('=HYPERLINK("http://x","y")');
  });

  it('refuses cells outside the sheet: an unknown row, an unknown column, another sheet, a paste too wide', async () => {
    const row = (await rows(t, info.id)).rows[0];
    await refused({ edit: { op: 'set', sheet: 0, cells: [{ row_id: 999_999, column_id: 1, value: 'x' }] } }, 400, 'bad-edit');
    await refused({ edit: { op: 'set', sheet: 0, cells: [{ row_id: row.id, column_id: 99, value: 'x' }] } }, 400, 'bad-edit');
    await refused({ edit: { op: 'set', sheet: 7, cells: [{ row_id: row.id, column_id: 1, value: 'x' }] } }, 400, 'bad-edit');
    await refused({ edit: { op: 'paste', sheet: 0, row_id: row.id, column_id: 5, tsv: 'a\tb' } }, 400, 'bad-edit');
    await refused({ edit: { op: 'insert_rows', sheet: 0, at: 1000 } }, 400, 'bad-edit');
    await refused({ edit: { op: 'replace', find: '(', regex: true, replace: 'x' } }, 400, 'bad-edit');
    await refused({ edit: { op: 'add_column', sheet: 0, at: 0, name: 'no such field' } }, 400, 'unknown-column');
    await refused({ edit: { op: 'set', sheet: 0, cells: [{ row_id: row.id, column_id: 1, value: { formula: '1+1' } }] } }, 400, 'bad-cell');
  });

  it("refuses another user's workbook as if it did not exist, and a revision taken from another workbook", async () => {
    await refused({ edit: { op: 'insert_rows', sheet: 0, at: 0 } }, 404, 'not-found', PARIS_ADMIN);
    expect((await t.call('GET', `/workstation/workbooks/${info.id}/`, undefined, PARIS_ADMIN)).status).toBe(404);
    expect((await t.call('GET', '/workstation/workbooks/', undefined, PARIS_ADMIN)).body.workbooks).toEqual([]);
    // The root admin sees a workbook of an admin below it; the reverse is refused above.
    const upload = await t.call('GET', `/workstation/workbooks/${info.id}/sheets/0/rows/`, undefined, PARIS_ADMIN);
    expect(upload.status).toBe(404);
    const other = await stage(t, fixture('line-relation-exceljs.xlsx'));
    const before = await cellsNow();
    const reply = await t.call('POST', `/workstation/workbooks/${info.id}/edits/`, {
      revision: other.info.revision,
      edit: { op: 'insert_rows', sheet: 0, at: 0 },
    });
    expect(reply.status).toBe(409);
    expect(reply.body.code).toBe('revision-conflict');
    expect(await cellsNow()).toBe(before);
  });

  it('refuses users without the bulkload role', async () => {
    await t.call('POST', `/api/data/User/${q(PARIS)}`, {
      data: { username: 'paris.operator', role: 'operator', password: 'paris-operator-pw' },
    });
    const reply = await t.call('GET', '/workstation/workbooks/', undefined, basicAuth('paris.operator', 'paris-operator-pw'));
    expect(reply.status).toBe(403);
  });
});

describe('workbooks that start from the service', () => {
  it('from a bulk load template: the directive layout, no rows, required columns marked', async () => {
    const created = await t.call('POST', '/workstation/workbooks/', {
      from: 'template',
      model_type: 'relation/LineRelation',
      hierarchy: PARIS,
    });
    expect(created.status, created.text).toBe(202);
    const made = await settled(t, created.body.workbook.id);
    expect(made.source).toBe('template');
    expect(made.sheets[0].layout).toBe('directive');
    expect(made.sheets[0].directive).toContain('entity: relation/LineRelation');
    expect(made.sheets[0].rows).toBe(0);
    expect(made.sheets[0].columns.find((column) => column.field === 'pattern')).toMatchObject({ required: true, text: true });
  });

  it('from an export of a list: one row per instance, each a modify of its pkid', async () => {
    const created = await t.call('POST', '/workstation/workbooks/', { from: 'export', model_type: 'device/cucm/Phone', hierarchy: PARIS });
    expect(created.status, created.text).toBe(202);
    const made = await settled(t, created.body.workbook.id);
    expect(made.source).toBe('export');
    expect(made.sheets[0].rows).toBe(10);
    expect(made.counts.errors).toBe(0);
  });

  it('refuses a template for a hierarchy outside the caller, and a model that does not exist', async () => {
    const outside = await t.call(
      'POST',
      '/workstation/workbooks/',
      { from: 'template', model_type: 'relation/LineRelation', hierarchy: 'sys.hcs.Telco.Acme.London' },
      PARIS_ADMIN,
    );
    expect(outside.status).toBe(403);
    const unknown = await t.call('POST', '/workstation/workbooks/', { from: 'template', model_type: 'relation/Nope', hierarchy: PARIS });
    expect(unknown.status).toBe(404);
  });
});
