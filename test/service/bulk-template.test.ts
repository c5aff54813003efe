import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../main/service';
import { ACME, BASIC, LONDON, openTestService, PARIS, q, type TestService } from './helpers';

/**
 * The bulk load template (decisions.md, "Bulk load sheets"): the directive layout with the
 * model's columns, the policy's titles and groups, required columns marked, text columns for
 * directory numbers, and drop-down lists for choices. Read back with exceljs, cell by cell.
 */
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PASSWORD = 'template-password-1';

/** exceljs's typings want an ArrayBuffer-like Buffer; a copy of the bytes is one. */
const arrayBufferOf = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer as ArrayBuffer;

let t: TestService;
const as = (user: string): Record<string, string> => ({ authorization: `Basic ${Buffer.from(`${user}:${PASSWORD}`).toString('base64')}` });

async function download(url: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return t.service.handle({ method: 'GET', url, headers: { authorization: BASIC, ...headers } });
}

async function sheetOf(response: ApiResponse): Promise<ExcelJS.Worksheet> {
  expect(response.status, String(response.body)).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(arrayBufferOf(response.body as Uint8Array));
  return workbook.worksheets[0];
}

/** Row `n` as an array of cell values, column A first, up to the last column of row 2. */
function rowValues(sheet: ExcelJS.Worksheet, n: number): unknown[] {
  const width = sheet.getRow(2).cellCount;
  return Array.from({ length: width }, (_, index) => sheet.getRow(n).getCell(index + 1).value);
}

const columnOf = (sheet: ExcelJS.Worksheet, name: string): number => rowValues(sheet, 2).indexOf(name) + 1;

const template = (model: string, extra = '', hierarchy = PARIS): string => `/api/${model}/export_bulkload_template/${q(hierarchy, extra)}`;

beforeAll(async () => {
  t = await openTestService({ demo: true });
  for (const role of ['operator', 'readonly']) {
    const made = await t.call('POST', `/api/data/User/${q(PARIS)}`, { data: { username: `tpl-${role}`, role, password: PASSWORD } });
    if (made.status !== 200) throw new Error(`setup: ${made.text}`);
  }
});
afterAll(() => t.close());

describe('bulk load template', () => {
  it('answers an xlsx attachment with the spec headers and a download cookie', async () => {
    const response = await download(template('relation/LineRelation'));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="relation_LineRelation_bulkload_template_\d{8}_\d{6}\.xlsx"$/,
    );
    expect(response.headers['set-cookie']).toContainEqual(expect.stringMatching(/^fileDownloadToken=[0-9a-f]{24}; Path=\/$/));
    const given = await download(template('relation/LineRelation', '&downloadToken=tok-123'));
    expect(given.headers['set-cookie']).toContain('fileDownloadToken=tok-123; Path=/');
  });

  it('writes the directive, names, empty groups and titles with required fields marked, and no data', async () => {
    const sheet = await sheetOf(await download(template('relation/LineRelation')));
    expect(sheet.name).toBe('relation_LineRelation');
    expect(sheet.getCell('A1').value).toBe(`entity: relation/LineRelation; hierarchy: ${PARIS}; parallel: false; evaluate_macros: false`);
    const names = rowValues(sheet, 2);
    expect(names.slice(0, 6)).toEqual([
      'Hierarchy Node',
      'Action',
      'Unique Identifier (pkid)',
      'pattern',
      'patternPrecedence',
      'routePartitionName',
    ]);
    expect(names).toContain('callForwardAll.destination');
    expect(names).toContain('e164AltNum.numMask');
    expect(names).toContain('summary_device');
    expect(names).not.toContain('hierarchy_path');
    expect(rowValues(sheet, 3).every((value) => value === null)).toBe(true);
    const titles = rowValues(sheet, 4);
    expect(titles[columnOf(sheet, 'pattern') - 1]).toBe('Directory Number *');
    expect(titles[columnOf(sheet, 'alertingName') - 1]).toBe('Alerting Name');
    expect(titles[columnOf(sheet, 'callForwardAll.destination') - 1]).toBe('Call Forward All / Destination');
    expect(titles[columnOf(sheet, 'e164AltNum.isUrgent') - 1]).toBe('E.164 Alternate Number / Urgent');
    expect(sheet.rowCount).toBe(4);
  });

  it('formats directory-number and text columns as text, and leaves number and flag columns alone', async () => {
    const sheet = await sheetOf(await download(template('relation/LineRelation')));
    for (const name of ['pattern', 'callForwardAll.destination', 'description', 'Hierarchy Node']) {
      expect(sheet.getColumn(columnOf(sheet, name)).numFmt, name).toBe('@');
    }
    for (const name of ['rejectAnonymousCall', 'hrInterval']) expect(sheet.getColumn(columnOf(sheet, name)).numFmt, name).toBeUndefined();
  });

  it('offers choices as data validation lists, and array fields as their first element', async () => {
    const sheet = await sheetOf(await download(template('device/cucm/Phone')));
    const names = rowValues(sheet, 2);
    expect(names).toEqual([
      'Hierarchy Node',
      'Action',
      'Unique Identifier (pkid)',
      'name',
      'product',
      'protocol',
      'description',
      'lines.0.pattern',
      'lines.0.routePartitionName',
    ]);
    expect(rowValues(sheet, 4).slice(3)).toEqual([
      'Device Name *',
      'Product',
      'Protocol',
      'Description',
      'Lines 1 / Directory Number *',
      'Lines 1 / Route Partition',
    ]);
    const protocol = sheet.getRow(5).getCell(columnOf(sheet, 'protocol'));
    expect(protocol.dataValidation).toMatchObject({ type: 'list', allowBlank: true, formulae: ['"SIP,SCCP"'] });
    expect(sheet.getRow(2000).getCell(columnOf(sheet, 'protocol')).dataValidation?.formulae).toEqual(['"SIP,SCCP"']);
    expect(sheet.getRow(4).getCell(columnOf(sheet, 'protocol')).dataValidation).toBeUndefined();
    expect(sheet.getCell('B5').dataValidation).toMatchObject({ type: 'list', formulae: ['"add,modify,delete"'] });
    expect(sheet.getCell('D5').dataValidation).toBeUndefined();
    expect(sheet.getColumn(columnOf(sheet, 'lines.0.pattern')).numFmt).toBe('@');
  });

  it('offers write-only fields (a new user needs a password) and role choices', async () => {
    const sheet = await sheetOf(await download(template('data/User')));
    expect(rowValues(sheet, 2).slice(3)).toEqual(['username', 'role', 'email', 'password']);
    expect(rowValues(sheet, 4).slice(3)).toEqual(['Username *', 'Role *', 'Email', 'Password']);
    expect(sheet.getRow(5).getCell(5).dataValidation?.formulae).toEqual(['"admin,operator,readonly"']);
  });

  it('uses the named Field Display Policy: its groups in row 3, its titles in row 4, hidden fields left out', async () => {
    const sheet = await sheetOf(await download(template('relation/LineRelation', '&policy_name=Acme%20Line%20Form')));
    const names = rowValues(sheet, 2);
    expect(names).not.toContain('patternPrecedence');
    const group = (name: string): unknown => sheet.getRow(3).getCell(columnOf(sheet, name)).value;
    expect(group('pattern')).toBe('Line');
    expect(group('description')).toBe('Line');
    expect(group('summary_device')).toBe('Device');
    expect(group('callForwardNoAnswer.destination')).toBe('Forwarding');
    expect(group('usage')).toBe('Other');
    expect(group('Action')).toBeNull();

    const policy = await t.call('POST', `/api/data/FieldDisplayPolicy/${q(PARIS)}`, {
      data: {
        name: 'Paris Lines',
        target_model_type: 'relation/LineRelation',
        groups: [{ title: 'Number', fields: ['pattern', 'callForwardAll.destination'] }],
        field_overrides: [
          { field: 'pattern', title: 'DN (E.164)' },
          { field: 'callForwardAll.destination', title: 'CFA to' },
          { field: 'alertingName', hidden: true },
        ],
      },
    });
    expect(policy.status).toBe(200);
    const paris = await sheetOf(await download(template('relation/LineRelation', '&policy_name=Paris%20Lines')));
    const title = (name: string): unknown => paris.getRow(4).getCell(columnOf(paris, name)).value;
    expect(title('pattern')).toBe('DN (E.164) *');
    expect(title('callForwardAll.destination')).toBe('Call Forward All / CFA to');
    expect(columnOf(paris, 'alertingName')).toBe(0);
    expect(paris.getRow(3).getCell(columnOf(paris, 'callForwardAll.destination')).value).toBe('Number');
    // Only the listed member of callForwardAll is in the group; its siblings are in none.
    expect(paris.getRow(3).getCell(columnOf(paris, 'callForwardAll.forwardToVoiceMail')).value).toBeNull();
    expect(paris.getRow(3).getCell(columnOf(paris, 'callForwardBusy.destination')).value).toBe('Other');
  });

  it('names the Configuration Template in A1 when one is given, and refuses unknown ones', async () => {
    const sheet = await sheetOf(await download(template('relation/LineRelation', '&template_name=Acme%20Line%20Defaults')));
    expect(sheet.getCell('A1').value).toBe(
      `entity: relation/LineRelation; hierarchy: ${PARIS}; parallel: false; evaluate_macros: false; template: Acme Line Defaults`,
    );
    expect((await download(template('relation/LineRelation', '&template_name=Nope'))).status).toBe(404);
    expect((await download(template('relation/LineRelation', '&policy_name=Nope'))).status).toBe(404);
  });

  it('needs the hierarchy (the request names no pkid) and refuses an unknown one', async () => {
    // Never quietly aimed at the caller's own node: the spec wants hierarchy on every request
    // that names no instance pkid.
    for (const path of ['/api/data/Countries/export_bulkload_template/', '/api/data/Countries/export_bulkload_template/?hierarchy=']) {
      const missing = await download(path);
      expect(missing.status, path).toBe(400);
      expect(JSON.parse(String(missing.body)).code).toBe('hierarchy-required');
    }
    const sheet = await sheetOf(await download(template('data/Countries', '', 'sys')));
    expect(sheet.getCell('A1').value).toBe('entity: data/Countries; hierarchy: sys; parallel: false; evaluate_macros: false');
    expect((await download(template('data/Countries', '', 'sys.nowhere'))).status).toBe(404);
  });

  it('lets operators have templates, refuses readonly users and places out of reach, and only answers GET', async () => {
    expect((await download(template('relation/LineRelation'), as('tpl-operator'))).status).toBe(200);
    for (const [user, hierarchy] of [
      ['tpl-readonly', PARIS],
      ['tpl-operator', LONDON],
      ['tpl-operator', ACME],
    ]) {
      const refused = await download(template('relation/LineRelation', '', hierarchy), as(user));
      expect(refused.status, `${user} at ${hierarchy}`).toBe(403);
      expect(JSON.parse(String(refused.body)).message).toMatch(/^Permission Denied/);
    }
    const posted = await t.call('POST', template('relation/LineRelation'), {});
    expect(posted.status).toBe(405);
  });
});
