import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewerAnswer, ViewerFindAnswer, ViewerInfo, ViewerRowPage } from '../../main/service/contract/viewer-api';
import type { WorkbookAnswer } from '../../main/service/contract/workbook-api';
import type { ViewedBook } from '../../main/service/viewer/viewed-book';
import { Viewers } from '../../main/service/viewer/viewers';
import { fixture, upload } from './bulk-validate-helpers';
import { ACME, LONDON, openTestService, PARIS, q, type TestService } from './helpers';
import { rows as workbookRows, settled } from './workbooks/workbook-helpers';

/** The export viewer through its real routes, on the demo world, as the renderer uses it. */
let t: TestService;
const PASSWORD = 'viewer-test-password-1';
const as = (username: string): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`${username}:${PASSWORD}`).toString('base64')}`,
});

beforeAll(async () => {
  t = await openTestService({ demo: true });
  for (const [username, role, at] of [
    ['viewer-readonly', 'readonly', PARIS],
    ['viewer-operator', 'operator', PARIS],
    ['viewer-london', 'admin', LONDON],
  ] as const) {
    const made = await t.call('POST', `/api/data/User/${q(at)}`, { data: { username, role, password: PASSWORD } });
    if (made.status !== 200) throw new Error(`setup: ${made.text}`);
  }
});
afterAll(() => t.close());

async function openViewer(body: unknown, headers: Record<string, string> = {}): Promise<ViewerInfo> {
  const reply = await t.call('POST', '/workstation/viewer/', body, headers);
  expect(reply.status, reply.text).toBe(200);
  return (reply.body as ViewerAnswer).viewer;
}

async function page(id: string, sheet = 0, query = 'limit=5000'): Promise<ViewerRowPage> {
  const reply = await t.get(`/workstation/viewer/${id}/sheets/${sheet}/rows/?${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as ViewerRowPage;
}

/** The lines the list API shows at a node: pattern of each. */
async function linePatterns(hierarchy: string): Promise<string[]> {
  const list = await t.get(`/api/relation/LineRelation/${q(hierarchy, '&limit=2000')}`);
  expect(list.status, list.text).toBe(200);
  return (list.body.resources as { data: { pattern: string } }[]).map((line) => line.data.pattern);
}

describe('viewing an export', () => {
  it('shows an export of the lines at Acme: its directive, titled columns with widths, every line, and finds a number', async () => {
    const viewer = await openViewer({ from: 'export', model_type: 'relation/LineRelation', hierarchy: ACME });
    const sheet = viewer.sheets[0];
    expect(sheet.directive).toMatch(/^entity: relation\/LineRelation; hierarchy: sys\.hcs\.Telco\.Acme/);
    // The export's four rows above the data (directive, names, groups, titles) are the header.
    expect(sheet.header_rows).toBe(4);
    const pattern = sheet.columns.findIndex((column) => column.name === 'pattern');
    expect(pattern).toBeGreaterThanOrEqual(0);
    expect(sheet.columns[pattern].title).toMatch(/Directory Number|Pattern/i);
    expect(sheet.columns.every((column) => column.width !== null && column.width > 50)).toBe(true);

    const patterns = await linePatterns(ACME);
    const rows = await page(viewer.id);
    expect(rows.total).toBe(patterns.length);
    expect(rows.rows.map((row) => row.cells[pattern]).sort()).toEqual([...patterns].sort());
    expect(rows.rows[0].row).toBe(5);
    // Paging: the second page starts where the first ended.
    const second = await page(viewer.id, 0, 'skip=2&limit=2');
    expect(second.rows.map((row) => row.row)).toEqual([7, 8]);

    const wanted = patterns[3];
    const found = await t.get(`/workstation/viewer/${viewer.id}/find/?text=${encodeURIComponent(wanted.toLowerCase())}`);
    expect(found.status, found.text).toBe(200);
    const answer = found.body as ViewerFindAnswer;
    expect(answer.total).toBeGreaterThanOrEqual(1);
    const hit = answer.matches.find((match) => match.column === pattern);
    expect(hit).toBeDefined();
    expect(rows.rows[hit!.index].cells[pattern]).toBe(wanted);
  });

  it('shows only the selected instances of a selection, and a search export', async () => {
    const list = await t.get(`/api/relation/LineRelation/${q(PARIS, '&limit=2')}`);
    const hrefs = (list.body.resources as { meta: { href: string } }[]).map((line) => line.meta.href);
    const selected = await openViewer({ from: 'export', model_type: 'relation/LineRelation', hierarchy: PARIS, hrefs });
    expect(selected.sheets[0].rows).toBe(2);
    expect(selected.source).toEqual({ from: 'export', model_type: 'relation/LineRelation', hierarchy: PARIS, hrefs });

    const searched = await openViewer({ from: 'search', query: 'relation/LineRelation with pattern startswith +33', hierarchy: ACME });
    const found = await linePatterns(ACME);
    const shown = searched.sheets.reduce((sum, sheet) => sum + sheet.rows, 0);
    expect(shown).toBe(found.filter((pattern) => pattern.startsWith('+33')).length);
    // The search's reach goes with it: at Acme's own node only, the sites' lines are not found.
    const local = await openViewer({ ...searched.source, direction: 'local' });
    expect(local.sheets.map((sheet) => [sheet.name, sheet.skipped])).toEqual([['#no results', true]]);
  });

  it('turns the viewed export into a staged workbook with the same rows ("Edit as workbook")', async () => {
    const viewer = await openViewer({ from: 'export', model_type: 'relation/LineRelation', hierarchy: PARIS });
    const shown = await page(viewer.id);
    const created = await t.call('POST', '/workstation/workbooks/', viewer.source);
    expect(created.status, created.text).toBe(202);
    const info = await settled(t, (created.body as WorkbookAnswer).workbook.id);
    expect(info.sheets[0].rows).toBe(shown.total);
    const staged = await workbookRows(t, info.id);
    const pattern = viewer.sheets[0].columns.findIndex((column) => column.name === 'pattern');
    const stagedColumn = info.sheets[0].columns.find((column) => column.field === 'pattern');
    expect(staged.rows.map((row) => String(row.cells[String(stagedColumn!.id)]))).toEqual(shown.rows.map((row) => row.cells[pattern]));
  });

  it('turns viewed search results into a staged workbook too', async () => {
    const viewer = await openViewer({ from: 'search', query: 'relation/LineRelation with pattern startswith +3314', hierarchy: PARIS });
    const created = await t.call('POST', '/workstation/workbooks/', viewer.source);
    expect(created.status, created.text).toBe(202);
    const info = await settled(t, (created.body as WorkbookAnswer).workbook.id);
    expect(info.sheets.reduce((sum, sheet) => sum + sheet.rows, 0)).toBe(viewer.sheets.reduce((sum, sheet) => sum + sheet.rows, 0));
  });
});

describe('viewing any .xlsx', () => {
  it('shows every sheet of a file, # sheets too, with its frozen pane, widths and the cells as text', async () => {
    const book = new ExcelJS.Workbook();
    const notes = book.addWorksheet('Notes', { views: [{ state: 'frozen', xSplit: 2, ySplit: 2 }] });
    notes.columns = [{ width: 20 }, { width: 8 }, {}];
    notes.addRow(['Site report']);
    notes.addRow(['Site', 'Count', 'Checked']);
    notes.addRow(['Paris', 42, new Date(Date.UTC(2026, 0, 31))]);
    notes.addRow(['London', 7, true]);
    const skipped = book.addWorksheet('#scratch');
    skipped.addRow(['only', 'notes']);
    await upload(t, 'notes.xlsx', Buffer.from(await book.xlsx.writeBuffer()), PARIS);

    const viewer = await openViewer({ from: 'upload', file: 'notes.xlsx', hierarchy: PARIS });
    expect(viewer.name).toBe('notes.xlsx');
    expect(viewer.sheets.map((sheet) => [sheet.name, sheet.skipped])).toEqual([
      ['Notes', false],
      ['#scratch', true],
    ]);
    const [sheet] = viewer.sheets;
    expect(sheet.directive).toBeNull();
    expect(sheet.header_rows).toBe(2);
    expect(sheet.frozen_columns).toBe(2);
    expect(sheet.columns.map((column) => [column.letter, column.title, column.width])).toEqual([
      ['A', 'Site', 145],
      ['B', 'Count', 61],
      ['C', 'Checked', null],
    ]);
    expect((await page(viewer.id)).rows).toEqual([
      { row: 3, cells: ['Paris', '42', '2026-01-31'] },
      { row: 4, cells: ['London', '7', 'TRUE'] },
    ]);
    expect((await page(viewer.id, 1)).rows).toEqual([]);
    expect(viewer.sheets[1].columns.map((column) => column.title)).toEqual(['only', 'notes']);
  });

  it('refuses a file that is not a workbook with a fault that says so', async () => {
    await upload(t, 'not-a-workbook.xlsx', fixture('hostile-not-a-workbook.xlsx'), PARIS);
    const reply = await t.call('POST', '/workstation/viewer/', { from: 'upload', file: 'not-a-workbook.xlsx', hierarchy: PARIS });
    expect(reply.status).toBe(415);
    expect(reply.body).toMatchObject({ success: false, http_code: 415, code: 'unsupported-media-type' });
    expect(reply.body.message).toMatch(/not-a-workbook\.xlsx is not an \.xlsx workbook/);
  });
});

describe('who may view', () => {
  it('refuses an export to a role without export and outside the caller reach, and keeps a viewer its opener own', async () => {
    const body = { from: 'export', model_type: 'relation/LineRelation', hierarchy: PARIS };
    const readonly = await t.call('POST', '/workstation/viewer/', body, as('viewer-readonly'));
    expect(readonly.status).toBe(403);
    expect(readonly.body.code).toBe('permission-denied');
    const beside = await t.call('POST', '/workstation/viewer/', body, as('viewer-london'));
    expect(beside.status).toBe(403);

    const viewer = await openViewer(body, as('viewer-operator'));
    expect((await t.get(`/workstation/viewer/${viewer.id}/`, as('viewer-operator'))).status).toBe(200);
    for (const other of ['viewer-london', 'viewer-readonly']) {
      const reply = await t.get(`/workstation/viewer/${viewer.id}/sheets/0/rows/`, as(other));
      expect(reply.status).toBe(404);
    }
    // Another user's upload is not theirs to view, whatever its name.
    const foreign = await t.call(
      'POST',
      '/workstation/viewer/',
      { from: 'upload', file: 'notes.xlsx', hierarchy: PARIS },
      as('viewer-operator'),
    );
    expect(foreign.status).toBe(404);
  });
});

describe('what the service holds', () => {
  const book = (cells: number): ViewedBook => ({ sheets: [], truncated: false, cells });

  it('forgets a viewer not read for the idle time, and keeps at most the per-user and total counts', () => {
    let now = 0;
    const viewers = new Viewers(() => now, { idleMs: 1000, perUser: 2, total: 3 });
    const source = { from: 'upload', file: 'a.xlsx', hierarchy: PARIS } as const;
    const first = viewers.add('ann', 'a', source, book(1));
    now = 900;
    expect(viewers.info('ann', first.id).expires_at).toBe(new Date(1900).toISOString());
    now = 1800;
    // Read at 900: still there at 1800, gone after 1900.
    expect(viewers.info('ann', first.id).name).toBe('a');
    now = 2801;
    expect(() => viewers.info('ann', first.id)).toThrow(/No viewer/);

    const a1 = viewers.add('ann', 'a1', source, book(1));
    now += 1;
    const a2 = viewers.add('ann', 'a2', source, book(1));
    now += 1;
    const a3 = viewers.add('ann', 'a3', source, book(1));
    expect(() => viewers.info('ann', a1.id)).toThrow(/No viewer/);
    expect(viewers.info('ann', a2.id).name).toBe('a2');
    now += 1;
    const b1 = viewers.add('bob', 'b1', source, book(1));
    now += 1;
    viewers.add('bob', 'b2', source, book(1));
    // Three at most in all: Ann's least recently read went.
    expect(() => viewers.info('ann', a2.id)).toThrow(/No viewer/);
    expect(viewers.info('ann', a3.id).name).toBe('a3');
    expect(viewers.info('bob', b1.id).name).toBe('b1');
    expect(() => viewers.info('ann', b1.id)).toThrow(/No viewer/);
  });
});
