import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../main/service';
import { BASIC, LONDON, openTestService, PARIS, q, type TestService } from './helpers';

/**
 * Search exports (decisions.md, "Exports"): `GET /api/view/ExportData/add` lists the formats;
 * `POST /api/export/export_data/?url=/api/tool/Search/` writes what the search finds as a
 * formatted (directive layout) or raw (compact layout) workbook, or JSON; `nowait=true` keeps
 * the file and answers a transaction whose resource is the file to download.
 */
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PASSWORD = 'search-export-password-1';
const EXPORT = '/api/export/export_data/?url=/api/tool/Search/';
const LINE_QUERY = 'relation/LineRelation with pattern startswith +331400010';

/** exceljs's typings want an ArrayBuffer-like Buffer; a copy of the bytes is one. */
const arrayBufferOf = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer as ArrayBuffer;

let t: TestService;
let found: { pkid: string; pattern: string }[];

const as = (user: string): Record<string, string> => ({ authorization: `Basic ${Buffer.from(`${user}:${PASSWORD}`).toString('base64')}` });

function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const raw = body === undefined ? undefined : JSON.stringify(body);
  return t.service.handle({ method, url, headers: { authorization: BASIC, 'content-type': 'application/json', ...headers }, body: raw });
}

const exportOf = (body: unknown, extra = '', headers: Record<string, string> = {}): Promise<ApiResponse> =>
  call('POST', `${EXPORT}&hierarchy=${encodeURIComponent(PARIS)}${extra}`, body, headers);

async function workbookOf(response: ApiResponse): Promise<ExcelJS.Workbook> {
  expect(response.status, String(response.body)).toBe(200);
  expect(response.headers['content-type']).toBe(XLSX);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(arrayBufferOf(response.body as Uint8Array));
  return workbook;
}

const rowOf = (sheet: ExcelJS.Worksheet, n: number): unknown[] =>
  Array.from({ length: sheet.getRow(n).cellCount }, (_, i) => sheet.getRow(n).getCell(i + 1).value);

beforeAll(async () => {
  t = await openTestService({ demo: true });
  for (const role of ['operator', 'readonly']) {
    const made = await t.call('POST', `/api/data/User/${q(PARIS)}`, { data: { username: `sx-${role}`, role, password: PASSWORD } });
    if (made.status !== 200) throw new Error(`setup: ${made.text}`);
  }
  const line = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, {
    data: { pattern: '+33140001050', description: '=1+1', alertingName: '@SUM(A1)' },
  });
  if (line.status !== 200) throw new Error(`setup: ${line.text}`);
  const search = await t.call('POST', `/api/tool/Search/${q(PARIS)}`, { query: LINE_QUERY });
  found = search.body.resources.map((resource: { meta: { pkid: string }; data: { pattern: string } }) => ({
    pkid: resource.meta.pkid,
    pattern: resource.data.pattern,
  }));
});
afterAll(() => t.close());

describe('ExportData form', () => {
  it('lists the export_data_type choices: formatted, raw and json', async () => {
    const form = await t.get('/api/view/ExportData/add');
    expect(form.status).toBe(200);
    expect(form.body.data.export_data_type).toBe('formatted');
    const property = form.body.schema.properties.export_data_type;
    expect(property.required).toBe(true);
    expect(property.choices).toEqual([
      { value: 'formatted', title: 'Formatted (xlsx, titles)' },
      { value: 'raw', title: 'Raw (xlsx, field names)' },
      { value: 'json', title: 'JSON' },
    ]);
    expect((await t.call('POST', '/api/view/ExportData/add', {})).status).toBe(405);
    expect((await t.get('/api/view/ExportData/')).status).toBe(404);
    expect((await t.get('/api/view/ExportData/help/')).status).toBe(200);
  });
});

describe('search export', () => {
  it('writes formatted: one directive-layout sheet per model, every instance the search found', async () => {
    expect(found.length).toBe(21);
    const response = await exportOf({ query: LINE_QUERY, export_data_type: 'formatted' });
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="tool_Search_exportedsheet_formatted_\d{8}_\d{6}\.xlsx"$/,
    );
    expect(response.headers['set-cookie']).toContainEqual(expect.stringMatching(/^fileDownloadToken=\w+; Path=\/$/));
    const workbook = await workbookOf(response);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['relation_LineRelation']);
    const sheet = workbook.worksheets[0];
    expect(sheet.getCell('A1').value).toBe(`entity: relation/LineRelation; hierarchy: ${PARIS}; parallel: false; evaluate_macros: false`);
    expect(rowOf(sheet, 2).slice(0, 4)).toEqual(['Hierarchy Node', 'Action', 'Unique Identifier (pkid)', 'pattern']);
    expect(rowOf(sheet, 4)[3]).toBe('Directory Number *');
    expect(sheet.rowCount - 4).toBe(found.length);
    const rows = Array.from({ length: found.length }, (_, i) => rowOf(sheet, 5 + i));
    expect(rows.map((row) => ({ pkid: row[2], pattern: row[3] }))).toEqual(found);
    const tricky = rows.find((row) => row[3] === '+33140001050') ?? [];
    const column = (name: string): number => rowOf(sheet, 2).indexOf(name);
    expect(tricky[column('description')]).toBe('=1+1');
    expect(tricky[column('alertingName')]).toBe('@SUM(A1)');
    // The whole instance, not only the summary the search shows.
    expect(rows[0][column('callForwardNoAnswer.destination')]).toBe('+33140009999');
  });

  it('writes raw: the compact layout, field names in row 1 and data from row 2', async () => {
    const response = await exportOf({ query: LINE_QUERY, export_data_type: 'raw' });
    expect(response.headers['content-disposition']).toMatch(/filename="tool_Search_exportedsheet_raw_\d{8}_\d{6}\.xlsx"$/);
    const sheet = (await workbookOf(response)).worksheets[0];
    expect(sheet.name).toBe('relation_LineRelation');
    expect(rowOf(sheet, 1).slice(0, 5)).toEqual(['Hierarchy Node', 'Action', 'Unique Identifier (pkid)', 'pattern', 'patternPrecedence']);
    expect(sheet.rowCount - 1).toBe(found.length);
    expect(rowOf(sheet, 2).slice(0, 4)).toEqual([PARIS, 'modify', found[0].pkid, found[0].pattern]);
    expect(sheet.getRow(2).getCell(4).type).toBe(ExcelJS.ValueType.String);
  });

  it('writes json: each instance whole, with its meta', async () => {
    const response = await exportOf({ query: LINE_QUERY, export_data_type: 'json' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['content-disposition']).toMatch(/filename="tool_Search_exported_json_\d{8}_\d{6}\.json"$/);
    const body = JSON.parse(Buffer.from(response.body as Uint8Array).toString('utf8'));
    expect(body.query).toBe(LINE_QUERY);
    expect(body.resources.map((resource: { meta: { pkid: string } }) => resource.meta.pkid)).toEqual(found.map((hit) => hit.pkid));
    const first = await t.get(`/api/relation/LineRelation/${found[0].pkid}/`);
    expect(body.resources[0]).toEqual({
      data: first.body.data,
      meta: {
        model_type: 'relation/LineRelation',
        pkid: found[0].pkid,
        hierarchy: PARIS,
        href: `/api/relation/LineRelation/${found[0].pkid}/`,
      },
    });
  });

  it('writes one sheet per model for a search across models, and a # sheet when nothing is found', async () => {
    const workbook = await workbookOf(await exportOf({ query: 'Paris', export_data_type: 'formatted' }));
    // The phones' product list, too long for an inline drop-down, is the hidden #choices sheet (skipped when loaded).
    const visible = workbook.worksheets.filter((sheet) => sheet.state !== 'hidden');
    expect(visible.map((sheet) => sheet.name).sort()).toEqual(['device_cucm_Line', 'device_cucm_Phone']);
    for (const sheet of visible)
      expect(String(sheet.getCell('A1').value)).toMatch(new RegExp(`^entity: ${sheet.name.replace(/_/g, '/')};`));
    const empty = await workbookOf(
      await exportOf({ query: 'relation/LineRelation with pattern is nothing-here', export_data_type: 'formatted' }),
    );
    expect(empty.worksheets.map((sheet) => sheet.name)).toEqual(['#no results']);
  });

  it('with nowait=true answers a transaction whose resource is the file, served to its maker only', async () => {
    const answer = await exportOf({ query: LINE_QUERY, export_data_type: 'raw' }, '&nowait=true');
    expect(answer.status).toBe(202);
    const reference = JSON.parse(String(answer.body));
    expect(reference).toMatchObject({ success: true, href: `/api/tool/Transaction/${reference.transaction_id}/` });
    await t.service.idle();
    const transaction = await t.get(reference.href);
    expect(transaction.body.data.status).toBe('Success');
    expect(transaction.body.data.model_type).toBe('view/ExportData');
    const id = transaction.body.data.resource.pkid;
    expect(reference.download_href).toBe(`/api/export/download/${id}/`);
    expect(transaction.body.data.resource.download_href).toBe(reference.download_href);
    expect(JSON.stringify(transaction.body.data.log)).toContain(reference.download_href);
    const file = await call('GET', reference.download_href);
    expect(file.headers['content-disposition']).toMatch(/filename="tool_Search_exportedsheet_raw_\d{8}_\d{6}\.xlsx"$/);
    expect((await workbookOf(file)).worksheets[0].rowCount - 1).toBe(found.length);
    expect((await call('GET', reference.download_href, undefined, as('sx-operator'))).status).toBe(404);
    expect((await call('GET', '/api/export/download/not-an-id/')).status).toBe(404);
    expect((await call('POST', reference.download_href, {})).status).toBe(405);
  });

  it('refuses bad input: another url, an unknown format, no query, GET', async () => {
    expect((await call('POST', '/api/export/export_data/?url=/api/data/User/', { query: 'x' })).status).toBe(400);
    expect((await exportOf({ query: LINE_QUERY, export_data_type: 'csv' })).status).toBe(400);
    expect((await exportOf({ export_data_type: 'raw' })).status).toBe(400);
    // The type is the request's own field (decisions.md): missing or null is refused, never taken as formatted.
    for (const body of [{ query: LINE_QUERY }, { query: LINE_QUERY, export_data_type: null }]) {
      const refused = await exportOf(body);
      expect(refused.status).toBe(400);
      expect(JSON.parse(String(refused.body))).toMatchObject({ code: 'validation-failed', details: [{ field: 'export_data_type' }] });
    }
    expect((await call('GET', EXPORT)).status).toBe(405);
    expect((await call('POST', '/api/export/elsewhere/', {})).status).toBe(404);
  });

  it('lets operators export searches, refuses readonly users and nodes out of reach', async () => {
    expect((await exportOf({ query: LINE_QUERY, export_data_type: 'formatted' }, '', as('sx-operator'))).status).toBe(200);
    const refused = [
      await exportOf({ query: LINE_QUERY, export_data_type: 'formatted' }, '', as('sx-readonly')),
      await call(
        'POST',
        `${EXPORT}&hierarchy=${encodeURIComponent(LONDON)}`,
        { query: LINE_QUERY, export_data_type: 'formatted' },
        as('sx-operator'),
      ),
    ];
    for (const response of refused) {
      expect(response.status).toBe(403);
      expect(JSON.parse(String(response.body)).message).toMatch(/^Permission Denied/);
    }
  });
});
