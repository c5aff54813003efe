import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../main/service/errors';
import { readWorkbook } from '../../main/service/sheets/read-workbook';
import type { ParsedWorkbook } from '../../main/service/sheets/sheet-types';
import { exceljsWorkbook } from '../fixtures/fixture-exceljs';
import { LINE_RELATION_HEADER, type SheetSpec } from '../fixtures/fixture-specs';
import { FIXTURES } from './bulk-validate-helpers';

const temp = mkdtempSync(join(tmpdir(), 'sheets-read-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const readFixture = (name: string): Promise<ParsedWorkbook> => readWorkbook(join(FIXTURES, name), name);

let count = 0;
async function readSheets(sheets: SheetSpec[]): Promise<ParsedWorkbook> {
  const path = join(temp, `book-${(count += 1)}.xlsx`);
  writeFileSync(path, await exceljsWorkbook(sheets));
  return readWorkbook(path, 'book.xlsx');
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** What a row says, without the per-sheet column map. */
const rowsOf = (workbook: ParsedWorkbook, sheet = 0) =>
  workbook.sheets[sheet].rows.map(({ rowNumber, action, hierarchy, template, pkid, data }) => ({
    rowNumber,
    action,
    hierarchy,
    template,
    pkid,
    data,
  }));

describe('the spec LineRelation sheet, written by exceljs and by LibreOffice', () => {
  it('reads the same rows from both, every number with its exact text', async () => {
    const byExceljs = await readFixture('line-relation-exceljs.xlsx');
    const byLibreOffice = await readFixture('line-relation-libreoffice.xlsx');
    expect(rowsOf(byLibreOffice)).toEqual(rowsOf(byExceljs));
    expect(byExceljs.sheets.map((sheet) => [sheet.modelType, sheet.layout])).toEqual([['relation/LineRelation', 'compact']]);
    expect(byLibreOffice.sheets.map((sheet) => sheet.name)).toEqual(['LineRelation']);
    const patterns = byExceljs.sheets[0].rows.map((row) => row.data.pattern);
    expect(patterns).toEqual(['+33140001050', '+33140001051', '00442079460123', '33140001052', '0033140001053', '+44207941055']);
    expect(byExceljs.sheets[0].rows[0]).toMatchObject({
      hierarchy: 'sys.hcs.Telco.Acme.Paris',
      template: 'Acme Line Defaults',
      data: { summary_device: 'SEP00AA00000001', pattern: '+33140001050', alertingName: 'Alice Martin' },
      columns: { 'Hierarchy Node': 'A', summary_device: 'B', 'CFT Template': 'C', pattern: 'D', alertingName: 'E' },
    });
    expect(byExceljs.sheets[0].rows[4].data.alertingName).toBe('');
    expect(byExceljs.sheets[0].rows[5].data.alertingName).toBe('Émilie "Q" <&> Brown');
    expect(byExceljs.sheets[0].rows[3].data).not.toHaveProperty('summary_device');
  });

  it('warns where LibreOffice holds numbers as numeric cells, and not where they are text', async () => {
    expect((await readFixture('line-relation-exceljs.xlsx')).issues).toEqual([]);
    const issues = (await readFixture('line-relation-libreoffice.xlsx')).issues;
    expect(issues.map(({ row, column, code, severity }) => ({ row, column, code, severity }))).toEqual([
      { row: 4, column: 'D', code: 'numeric-in-text-column', severity: 'warning' },
      { row: 5, column: 'D', code: 'numeric-in-text-column', severity: 'warning' },
    ]);
    expect(issues[0].message).toBe(
      "Row 4, Directory Number (D4): numeric cell read as the text '00442079460123': format the column as Text so numbers keep a leading + or 0 (store directory numbers as text).",
    );
  });
});

describe('the directive layout, written by exceljs and by LibreOffice', () => {
  it('reads nested and array fields, formulas, dates, booleans, rich text and merges the same from both', async () => {
    const byExceljs = await readFixture('directive-exceljs.xlsx');
    const byLibreOffice = await readFixture('directive-libreoffice.xlsx');
    for (const sheet of [0, 1]) expect(rowsOf(byLibreOffice, sheet)).toEqual(rowsOf(byExceljs, sheet));
    expect(byLibreOffice.issues).toEqual(byExceljs.issues);
    expect(byExceljs.sheets.map((sheet) => [sheet.name, sheet.modelType, sheet.layout])).toEqual([
      ['Phones', 'device/cucm/Phone', 'directive'],
      ['Lines', 'relation/LineRelation', 'directive'],
    ]);
    expect(byExceljs.sheets[1].directive).toEqual({
      entity: 'relation/LineRelation',
      hierarchy: 'sys.hcs.Telco.Acme.Paris',
      template: 'Acme Line Defaults',
      parallel: false,
      evaluateMacros: false,
    });
    expect(rowsOf(byExceljs, 0).map((row) => row.data)).toEqual([
      {
        name: 'SEP00BB00000001',
        product: 'Cisco 8845',
        protocol: 'SIP',
        description: 'Desk one',
        lines: [{ pattern: '+33140001060', routePartitionName: 'Paris-PT' }],
      },
      {
        name: 'SEP00BB00000002',
        product: 'Cisco 7841',
        protocol: 'SIP',
        description: '2024-03-01',
        lines: [{ pattern: '+33140001061' }, { pattern: '+33140001062' }],
      },
      {
        name: 'SEP00BB00000003',
        product: 'Cisco 8845',
        protocol: 'SCCP',
        description: 'Lobby',
        lines: [{ pattern: '+33140001063', routePartitionName: 'Paris-PT' }],
      },
    ]);
    expect(rowsOf(byExceljs, 0).map((row) => row.action)).toEqual(['add', 'add', 'add']);
    expect(rowsOf(byExceljs, 1).map((row) => row.data)).toEqual([
      {
        pattern: '+33140001064',
        alertingName: 'Alice Martin',
        summary_device: 'SEP00BB00000001',
        callForwardAll: { destination: '+33140009999', forwardToVoiceMail: true },
        rejectAnonymousCall: false,
      },
      {
        pattern: '+33140001065',
        alertingName: 'BRUNO',
        summary_device: 'SEP00BB00000002',
        callForwardAll: { forwardToVoiceMail: false },
        rejectAnonymousCall: true,
      },
      { pattern: '+33140001066', alertingName: 'Front desk', summary_device: 'SEP00BB00000003' },
      { pattern: '+33140001067', summary_device: 'SEP00BB00000003' },
      { pattern: '+33140001068' },
    ]);
  });

  it('reports the date read as text, the read-only column, merged data cells and the error formula; not the merged header', async () => {
    const { issues } = await readFixture('directive-libreoffice.xlsx');
    expect(issues.map(({ sheet, row, column, code }) => `${sheet}!${column}${row} ${code}`)).toEqual([
      'Phones!E6 date-in-text-column',
      'Lines!G2 read-only-column',
      'Lines!B7 merged-cells',
      'Lines!B9 cell-error',
    ]);
    expect(issues[2].message).toBe(
      'Row 7, alertingName (B7): cells B7:B8 are merged: only B7 is read and the other cells count as empty; unmerge them and fill in each cell.',
    );
  });
});

describe('cell values', () => {
  it('keeps text exactly, converts for the field, and reports what cannot be read', async () => {
    const workbook = await readFixture('cells-exceljs.xlsx');
    const rows = workbook.sheets[0].rows;
    expect(rows.map((row) => row.data)).toEqual([
      {},
      { pattern: '+33140001070', alertingName: '', description: 'TRUE', rejectAnonymousCall: true, hrInterval: 30 },
      { pattern: '+33140001071', alertingName: 'Ok', description: '1.5' },
      { pattern: '+33140001072' },
      { pattern: '33140001073', alertingName: 'Numeric' },
    ]);
    expect(rows.map((row) => row.readErrors ?? 0)).toEqual([2, 0, 2, 1, 0]);
    expect(rows[2].badAction).toBe('update');
    const byCell = Object.fromEntries(workbook.issues.map((issue) => [`${issue.column}${issue.row}`, [issue.code, issue.severity]]));
    expect(byCell).toEqual({
      A2: ['number-lost-digits', 'error'],
      B2: ['cell-error', 'error'],
      D3: ['boolean-in-text-column', 'warning'],
      D4: ['numeric-in-text-column', 'warning'],
      E4: ['wrong-type', 'error'],
      G4: ['bad-action', 'error'],
      B5: ['formula-without-value', 'error'],
      A6: ['numeric-in-text-column', 'warning'],
    });
    const message = (cell: string) => workbook.issues.find((issue) => `${issue.column}${issue.row}` === cell)?.message;
    expect(message('A2')).toBe(
      'Row 2, pattern (A2): the number 12345678901234568 has more than the 15 digits Excel keeps, so its last digits were lost: format the column as Text and type the number again (store directory numbers as text).',
    );
    expect(message('B2')).toBe('Row 2, alertingName (B2): the cell holds the error #DIV/0!: correct the formula or type the value.');
    expect(message('E4')).toBe("Row 4, rejectAnonymousCall (E4): 'maybe' is not TRUE or FALSE.");
    expect(message('G4')).toBe("Row 4, Action (G4): 'update' is not an action: write add, modify or delete (an empty cell adds).");
  });

  it('writes numbers in text columns without exponent or .0', async () => {
    const workbook = await readSheets([
      {
        name: 'LineRelation',
        rows: [
          ['pattern', 'alertingName'],
          [
            { kind: 'number', value: 33140001000 },
            { kind: 'number', value: 2 },
          ],
          [
            { kind: 'number', value: 1e14 },
            { kind: 'number', value: 0.1 + 0.2 },
          ],
        ],
      },
    ]);
    expect(workbook.sheets[0].rows.map((row) => row.data)).toEqual([
      { pattern: '33140001000', alertingName: '2' },
      { pattern: '100000000000000', alertingName: '0.3' },
    ]);
  });
});

describe('headers', () => {
  it('resolves meta columns, names and titles whatever their case and spacing', async () => {
    const workbook = await readSheets([
      {
        name: 'relation.LineRelation',
        rows: [
          [
            'hierarchy_node',
            ' directory   NUMBER ',
            '#alerting name',
            'CALLFORWARDALL.DESTINATION',
            'Call Forward Busy Destination',
            'Unique Identifier (pkid)',
            '# Comment',
            'action',
          ],
          ['sys.hcs', '+33140001050', 'A', '+331', '+332', 'abc', 'a note', 'Modify'],
        ],
      },
    ]);
    const [row] = workbook.sheets[0].rows;
    expect(row).toMatchObject({ hierarchy: 'sys.hcs', pkid: 'abc', comment: 'a note', action: 'modify' });
    expect(row.data).toEqual({
      pattern: '+33140001050',
      alertingName: 'A',
      callForwardAll: { destination: '+331' },
      callForwardBusy: { destination: '+332' },
    });
  });

  it('fails the whole workbook on a header that names nothing, naming the sheet and the cell', async () => {
    const error = await refusal(
      readSheets([
        {
          name: 'LineRelation',
          rows: [
            [...LINE_RELATION_HEADER.slice(0, 3), 'Colour'],
            ['sys.hcs', '', '', 'red'],
          ],
        },
      ]),
    );
    expect([error.httpCode, error.code]).toEqual([400, 'unknown-column']);
    expect(error.message).toBe("Sheet 'LineRelation', cell D1: column 'Colour' is not a field or meta column of relation/LineRelation.");
  });

  it('in the directive layout, takes row 4 titles where row 2 has no name, and names their cell', async () => {
    const entity = 'entity: relation/LineRelation';
    const titles = await readSheets([{ name: 'Lines', rows: [[entity], ['pattern', null], [], [null, 'Alerting Name'], ['+331', 'Ann']] }]);
    expect(titles.sheets[0].rows[0].data).toEqual({ pattern: '+331', alertingName: 'Ann' });
    const error = await refusal(
      readSheets([{ name: 'Lines', rows: [[entity], ['pattern', null], [], [null, 'Colour'], ['+331', 'red']] }]),
    );
    expect(error.message).toBe("Sheet 'Lines', cell B4: column 'Colour' is not a field or meta column of relation/LineRelation.");
  });

  it('refuses two columns for one field, and a field with a part of it', async () => {
    const twice = await refusal(
      readSheets([
        {
          name: 'LineRelation',
          rows: [
            ['pattern', 'Directory Number'],
            ['1', '2'],
          ],
        },
      ]),
    );
    expect([twice.httpCode, twice.code, twice.message]).toEqual([
      400,
      'duplicate-column',
      "Sheet 'LineRelation', cells A1 and B1: columns 'pattern' and 'Directory Number' both give pattern; keep one of them.",
    ]);
    const overlapping = await refusal(
      readSheets([
        {
          name: 'LineRelation',
          rows: [
            ['callForwardAll', 'callForwardAll.destination'],
            ['{}', '1'],
          ],
        },
      ]),
    );
    expect(overlapping.code).toBe('duplicate-column');
  });

  it('takes the model from the sheet name, the directive, or refuses with a way out', async () => {
    const copied = await readSheets([{ name: 'LineRelation (2)', rows: [['pattern'], ['+331']] }]);
    expect(copied.sheets[0].modelType).toBe('relation/LineRelation');
    const unknown = await refusal(readSheets([{ name: 'Lines', rows: [['pattern'], ['+331']] }]));
    expect([unknown.code, unknown.message]).toEqual([
      'bad-sheet',
      "Sheet 'Lines': the sheet name is not a model (e.g. relation_LineRelation or LineRelation) and cell A1 holds no 'entity:' directive; rename the sheet after its model, or start the sheet with a directive.",
    ]);
    const typo = await refusal(readSheets([{ name: 'Lines', rows: [['entity: relation/LineRelation; hierachy: sys']] }]));
    expect([typo.code, typo.message]).toEqual([
      'bad-directive',
      "Sheet 'Lines', cell A1: 'hierachy: sys' is not a directive; write key: value pairs with the keys entity, hierarchy, parallel, evaluate_macros, template, separated by ';'.",
    ]);
    const tool = await refusal(readSheets([{ name: 'Lines', rows: [['entity: tool/Transaction']] }]));
    expect(tool.message).toBe("Sheet 'Lines', cell A1: tool/Transaction cannot be bulk loaded; load data, device or relation models.");
    const noHeader = await refusal(readSheets([{ name: 'LineRelation', rows: [[], ['+331']] }]));
    expect(noHeader.message).toMatch(/^Sheet 'LineRelation': row 1 is empty/);
  });

  it('skips # sheets and empty sheets, and refuses a workbook with nothing to load', async () => {
    const withEmpty = await readSheets([
      { name: 'Sheet1', rows: [] },
      { name: '#Read me', rows: [['notes']] },
      { name: 'Countries', rows: [['country_name'], ['France']] },
    ]);
    expect(withEmpty.sheets.map((sheet) => sheet.name)).toEqual(['Countries']);
    const nothing = await refusal(readSheets([{ name: '#Notes', rows: [['only notes']] }]));
    expect([nothing.httpCode, nothing.code]).toEqual([400, 'empty-workbook']);
  });

  it('warns about values under no header, and refuses gaps in lists', async () => {
    const workbook = await readSheets([
      {
        name: 'Phone',
        rows: [
          ['name', 'lines.1.pattern'],
          ['SEP1', '+331', null, 'stray'],
        ],
      },
    ]);
    expect(workbook.issues.map(({ row, column, field, code, severity }) => ({ row, column, field, code, severity }))).toEqual([
      { row: 2, column: '', field: 'lines.0', code: 'array-gap', severity: 'error' },
      { row: 2, column: 'D', field: '', code: 'unlabelled-column', severity: 'warning' },
    ]);
    expect(workbook.issues[1].message).toBe(
      'Row 2, column D (D2): this column has no header, so its values are ignored: give it a header or clear it.',
    );
  });
});

describe('workbook structure and limits', () => {
  it('takes sheets in tab order, whatever order the file stores them in', async () => {
    const { readZip, writeZip } = await import('../fixtures/zip-tools');
    const bytes = await exceljsWorkbook([
      { name: 'Countries', rows: [['country_name'], ['First in the file']] },
      { name: 'LineRelation', rows: [['pattern'], ['+331']] },
    ]);
    // Swap the two <sheet> elements: the tabs now read LineRelation, Countries.
    const parts = readZip(bytes).map((part) => {
      if (part.name !== 'xl/workbook.xml') return part;
      const xml = part.data.toString('utf8').replace(/(<sheet [^>]*\/>)(<sheet [^>]*\/>)/, '$2$1');
      return { name: part.name, data: Buffer.from(xml) };
    });
    const path = join(temp, 'reordered.xlsx');
    writeFileSync(path, writeZip(parts));
    const workbook = await readWorkbook(path, 'reordered.xlsx');
    expect(workbook.sheets.map((sheet) => sheet.name)).toEqual(['LineRelation', 'Countries']);
  });

  it('stops at the data-row limit with a 413 naming it', async () => {
    const rows = Array.from({ length: 30 }, (_, index) => [`+3314000${String(index).padStart(4, '0')}`]);
    const path = join(temp, 'thirty.xlsx');
    writeFileSync(path, await exceljsWorkbook([{ name: 'LineRelation', rows: [['pattern'], ...rows] }]));
    expect((await readWorkbook(path, 'thirty.xlsx', { maxDataRows: 30 })).sheets[0].rows).toHaveLength(30);
    const error = await refusal(readWorkbook(path, 'thirty.xlsx', { maxDataRows: 29 }));
    expect([error.httpCode, error.code, error.message]).toEqual([
      413,
      'too-large',
      'thirty.xlsx has more than 29 data rows, the limit of one bulk load: split it into several workbooks.',
    ]);
  });
});
