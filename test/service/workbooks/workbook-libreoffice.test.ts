import ExcelJS from 'exceljs';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookCell, WorkbookInfo } from '../../../main/service/contract/workbook-api';
import { CHOICES_SHEET } from '../../../main/service/sheets/write-workbook';
import { fodsDocument } from '../../fixtures/fixture-fods';
import { DIRECTIVE_SHEETS, lineRelationSheets } from '../../fixtures/fixture-specs';
import { openTestService, type TestService } from '../helpers';
import { findSoffice, openLibreOffice, type CsvSheet, type LibreOffice } from './libreoffice';
import { edit, issues, plainIssues, rows, saved, settled, stage, validateFileIssues, type PlainIssue } from './workbook-helpers';

/**
 * Save round trip: a workbook written by LibreOffice is staged, edited and saved; the saved file,
 * reopened by exceljs and by LibreOffice, has the same sheets and header rows and the same cells
 * as the original except exactly the edited ones, which hold their new values.
 */
const SOFFICE = findSoffice();
if (!SOFFICE) console.log('workbook-libreoffice.test.ts: skipped, `soffice` (LibreOffice) is not on the PATH.');

/** One edited cell: its sheet (tab index), Excel address, and the value sent. */
interface CellEdit {
  sheet: number;
  address: string;
  value: WorkbookCell;
}

let t: TestService;
let office: LibreOffice;
let temp: string;
/** The LibreOffice-written .xlsx files, by fixture name. */
const written = new Map<string, string>();

beforeAll(async () => {
  if (!SOFFICE) return;
  temp = mkdtempSync(join(tmpdir(), 'workbook-libreoffice-'));
  office = openLibreOffice(SOFFICE);
  t = await openTestService({ demo: true });
  // The fixtures' flat ODS documents (fixture-specs.ts), saved as .xlsx by LibreOffice itself.
  const sources = { 'line-relation': fodsDocument(lineRelationSheets('LineRelation', true)), directive: fodsDocument(DIRECTIVE_SHEETS) };
  for (const [name, fods] of Object.entries(sources)) {
    const path = join(temp, `${name}.fods`);
    writeFileSync(path, fods);
    written.set(name, await office.toXlsx(path, join(temp, 'libreoffice')));
  }
}, 180_000);

afterAll(() => {
  t?.close();
  office?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

const splitAddress = (address: string): { letters: string; row: number } => {
  const match = /^([A-Z]+)(\d+)$/.exec(address);
  if (!match) throw new Error(`not a cell address: ${address}`);
  return { letters: match[1], row: Number(match[2]) };
};

const columnNumber = (letters: string): number => [...letters].reduce((total, letter) => total * 26 + letter.charCodeAt(0) - 64, 0);

/** Stages the bytes, sends the edits (one `set` per sheet, each on the revision the last answered), and saves. */
async function stageEditSave(original: Buffer, edits: CellEdit[]): Promise<{ info: WorkbookInfo; bytes: Buffer }> {
  const { info } = await stage(t, original);
  expect(info.state, JSON.stringify(info)).toMatch(/draft|validated/);
  let revision = info.revision;
  for (const sheet of [...new Set(edits.map((cell) => cell.sheet))]) {
    const columns = info.sheets[sheet].columns;
    const rowIds = new Map((await rows(t, info.id, sheet)).rows.map((row) => [row.row, row.id]));
    const cells = edits
      .filter((cell) => cell.sheet === sheet)
      .map(({ address, value }) => {
        const { letters, row } = splitAddress(address);
        const column = columns.find((candidate) => candidate.letter === letters);
        const rowId = rowIds.get(row);
        expect(column, `column ${letters} of sheet ${sheet}`).toBeDefined();
        expect(rowId, `row ${row} of sheet ${sheet}`).toBeDefined();
        return { row_id: rowId!, column_id: column!.id, value };
      });
    const result = await edit(t, info.id, revision, { op: 'set', sheet, cells });
    expect(result.changed).toBe(cells.length);
    revision = result.revision;
  }
  const edited = await settled(t, info.id);
  const bytes = await saved(t, info.id);
  // The saved file validates as the staged workbook did: no cell changed its meaning to the loader.
  // (A problem of a header cell is on row 0 in a staged workbook, a problem of the whole sheet.)
  const firstRow = new Map(edited.sheets.map((sheet) => [sheet.name, sheet.first_row]));
  const fromFile = (await validateFileIssues(t, bytes)).map(([sheet, row, ...rest]): PlainIssue => [
    sheet,
    row < (firstRow.get(sheet) ?? 0) ? 0 : row,
    ...rest,
  ]);
  expect(fromFile.sort()).toEqual(plainIssues(edited, await issues(t, info.id)));
  return { info: edited, bytes };
}

/** A formula with no saved result: the loader reads no value (formula-without-value). An error result is the error. */
const NO_VALUE = { formula: 'without a value' };

/**
 * What exceljs reads in a cell, as the loader takes it, as comparable JSON; null for an empty
 * cell. A staged workbook holds values, as the loader reads them (decisions.md: formulas are not
 * evaluated, their saved result is read), so a formula is its result, rich text its text; cell
 * formats, merges and comments are not part of a cell's value (LibreOffice's CSV below shows
 * the cells as formatted).
 */
function plain(cell: ExcelJS.Cell): unknown {
  // The cells a merge covers are empty in the file; exceljs hands them the first cell's value.
  if (cell.isMerged && cell.master.address !== cell.address) return null;
  let value = cell.value;
  if (value !== null && typeof value === 'object' && ('formula' in value || 'sharedFormula' in value)) {
    const result = value.result;
    if (result === undefined || result === null) return NO_VALUE;
    if (typeof result === 'object' && 'error' in result) return { error: result.error };
    value = result;
  }
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return { date: value.toISOString() };
  if (typeof value !== 'object') return value;
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('error' in value) return { error: value.error };
  return value;
}

interface ExcelView {
  sheets: { name: string; state: string }[];
  /** Per sheet name: address -> cell, the empty ones left out. */
  cells: Record<string, Record<string, unknown>>;
}

async function excelView(bytes: Buffer): Promise<ExcelView> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const view: ExcelView = { sheets: [], cells: {} };
  workbook.eachSheet((sheet) => {
    // Saving writes the drop-down lists too long to be inline (a phone's products) anew, hidden.
    if (sheet.name === CHOICES_SHEET) return;
    view.sheets.push({ name: sheet.name, state: sheet.state });
    const cells: Record<string, unknown> = {};
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        const value = plain(cell);
        if (value !== null) cells[cell.address] = value;
      }),
    );
    view.cells[sheet.name] = cells;
  });
  return view;
}

async function csvView(office: LibreOffice, bytes: Buffer, name: string): Promise<CsvSheet[]> {
  const dir = join(temp, `csv-${name}`);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.xlsx`);
  writeFileSync(path, bytes);
  return office.toCsv(path, dir);
}

/** Trailing empty cells and rows left out: LibreOffice pads each row to the sheet's used width. */
const tidy = (rows: string[][]): string[][] => {
  const trimmed = rows.map((row) => {
    const copy = [...row];
    while (copy.length && copy[copy.length - 1] === '') copy.pop();
    return copy;
  });
  while (trimmed.length && trimmed[trimmed.length - 1].length === 0) trimmed.pop();
  return trimmed;
};

/** The original's CSV with the edited cells holding the text sent. */
function csvWithEdits(sheets: CsvSheet[], names: string[], edits: CellEdit[]): CsvSheet[] {
  return sheets.map(({ sheet, rows }) => {
    const copy = rows.map((row) => [...row]);
    // `null`: this LibreOffice wrote the first sheet only.
    const index = sheet === null ? 0 : names.indexOf(sheet);
    for (const cell of edits.filter((candidate) => candidate.sheet === index)) {
      const { letters, row } = splitAddress(cell.address);
      const column = columnNumber(letters);
      while (copy.length < row) copy.push([]);
      while (copy[row - 1].length < column) copy[row - 1].push('');
      copy[row - 1][column - 1] = cell.value === null ? '' : String(cell.value);
    }
    return { sheet, rows: tidy(copy) };
  });
}

/**
 * Stages the LibreOffice file, edits it, saves it, and compares the saved file with the original
 * as exceljs reads it and as LibreOffice shows it.
 */
async function roundTrip(name: string, edits: CellEdit[]): Promise<void> {
  const original = readFileSync(written.get(name)!);
  const { info, bytes } = await stageEditSave(original, edits);

  // exceljs: the same sheets in the same order, the same header rows, the same cells but the edited ones.
  const before = await excelView(original);
  const after = await excelView(bytes);
  expect(after.sheets).toEqual(before.sheets);
  const expected = structuredClone(before.cells);
  for (const cell of edits) {
    const sheet = expected[before.sheets[cell.sheet].name];
    if (cell.value === null) delete sheet[cell.address];
    else sheet[cell.address] = cell.value;
  }
  for (const sheet of info.sheets.filter((candidate) => !candidate.skipped)) {
    const headers = (cells: Record<string, unknown>): Record<string, unknown> =>
      Object.fromEntries(Object.entries(cells).filter(([address]) => splitAddress(address).row < sheet.first_row));
    expect(headers(after.cells[sheet.name]), `header rows of ${sheet.name}`).toEqual(headers(before.cells[sheet.name]));
    expect(Object.keys(headers(before.cells[sheet.name])).length).toBeGreaterThan(0);
  }
  expect(after.cells).toEqual(expected);

  // The edited cells are text cells with the text format: a directory number keeps its + and leading zeros.
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  for (const cell of edits.filter((candidate) => typeof candidate.value === 'string')) {
    const savedCell = workbook.getWorksheet(before.sheets[cell.sheet].name)!.getCell(cell.address);
    expect(savedCell.type, cell.address).toBe(ExcelJS.ValueType.String);
    expect(savedCell.value, cell.address).toBe(cell.value);
    if (/^[+0]\d+$/.test(String(cell.value))) expect(savedCell.numFmt, cell.address).toBe('@');
  }

  // LibreOffice: every sheet it converts shows the same text but in the edited cells.
  const names = before.sheets.map((sheet) => sheet.name);
  const csvBefore = await csvView(office, original, `${name}-original`);
  const csvAfter = (await csvView(office, bytes, `${name}-saved`)).filter((sheet) => sheet.sheet !== CHOICES_SHEET);
  expect(csvAfter.map((sheet) => sheet.sheet)).toEqual(csvBefore.map((sheet) => sheet.sheet));
  expect(csvAfter.map(({ sheet, rows }) => ({ sheet, rows: tidy(rows) }))).toEqual(csvWithEdits(csvBefore, names, edits));
}

describe('Save round trip', () => {
  // Left as they were, and so checked: a directory number LibreOffice holds as a number with a
  // zero-padding format (D4) and one without (D5), a cell holding one space (E6), text with
  // quotes and markup characters (E7), the #Notes sheet.
  it.skipIf(!SOFFICE)(
    'saves a LibreOffice LineRelation sheet (compact layout) with exactly the edited cells changed',
    () =>
      roundTrip('line-relation', [
        { sheet: 0, address: 'D2', value: '+33140001099' },
        { sheet: 0, address: 'E3', value: 'Bruno Smyth' },
        // Empty in the original.
        { sheet: 0, address: 'C3', value: 'Acme Line Defaults' },
        // Text in the original, with its leading zeros.
        { sheet: 0, address: 'D6', value: '0033140001054' },
      ]),
    180_000,
  );

  // Left as they were, and so checked: the directives in A1, the group and title rows (a merged
  // group, an empty group row), formulas with saved results (C6 of Phones, B6 of Lines) and one
  // whose result is an error (B9 of Lines), a date in a text column (E6 of Phones), rich text
  // (E5 of Phones), TRUE and FALSE, the #Notes sheet.

  it.skipIf(!SOFFICE)(
    'saves a LibreOffice directive-layout workbook with exactly the edited cells changed',
    () =>
      roundTrip('directive', [
        { sheet: 0, address: 'F5', value: '+33140001069' },
        // A cell with a comment in the original.
        { sheet: 0, address: 'E7', value: 'Reception' },
        // Empty in the original.
        { sheet: 0, address: 'G6', value: 'Paris-PT' },
        { sheet: 1, address: 'A6', value: '+33140001070' },
        // Covered by the merge of B7 in the original.
        { sheet: 1, address: 'B8', value: 'Back desk' },
      ]),
    180_000,
  );
});
