import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import { ApiError } from '../errors';
import { isoDateText } from './cell-value';
import { SHEET_LIMITS } from './limits';
import { looksLikeFormula, type CellValue } from './write-cells';
import type { SheetColumn } from './write-columns';

/**
 * Writes workbooks with exceljs's streaming writer: each row is serialised and dropped as soon
 * as it is committed, so a large export never holds a whole workbook model in memory.
 * Every string is written as a string cell (exceljs makes a formula only from `{formula}`,
 * never from text), so `=1+1` or `+33140001050` is read back exactly as it was.
 */
export interface SheetSpec {
  name: string;
  /** Cell A1 of the directive layout; absent for the compact layout (names in row 1). */
  directive?: string;
  columns: SheetColumn[];
  /** Data rows, one cell per column, in column order. */
  rows: Iterable<CellValue[]>;
  /** Empty rows to leave before the data row at a 0-based place, so rows keep their Excel numbers. */
  gapsBefore?: ReadonlyMap<number, number>;
  /** Instead of headers and rows: cells at their own row numbers, written as they are (a `#` sheet saved back). */
  raw?: [number, CellValue[]][];
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Where drop-down lists too long for a validation formula live; the reader skips `#` sheets. */
export const CHOICES_SHEET = '#choices';
const LAST_ROW = 1_048_576;
/**
 * Drop-down lists reach this many rows past the data, not to the sheet's last row: readers
 * such as exceljs expand a validation range into one entry per cell when they load it.
 */
const SPARE_ROWS = 10_000;
/** Excel refuses an inline list longer than 255 characters. */
const INLINE_LIST_LIMIT = 255;
/** Rows written between two yields (and checks of the zip's backlog). */
const ROWS_PER_YIELD = 250;

type Worksheet = ExcelJS.Worksheet;
/** The streaming worksheet has `dataValidations`, which exceljs's typings leave out. */
type WithValidations = Worksheet & { dataValidations: { add(range: string, validation: ExcelJS.DataValidation): void } };

/** `A`, `B`, ... `Z`, `AA`... for a 1-based column number. */
export function columnLetter(column: number): string {
  let letters = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}

export async function writeWorkbook(sheets: SheetSpec[]): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: true });
  sharedOnlyWithEdgeSpaces(workbook);
  const lists = new ChoiceLists();
  for (const sheet of sheets) await writeSheet(workbook, sheet, lists);
  lists.write(workbook);
  await workbook.commit();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

/** Text starting or ending with a space, a tab or a line end. */
const EDGE_SPACE = /^\s|\s$/;

/** What exceljs 4.4's streaming workbook keeps (not in its typings): the shared strings table cells are added to. */
type WithSharedStrings = ExcelJS.stream.xlsx.WorkbookWriter & { sharedStrings: { add(value: unknown): number | undefined } };

/**
 * Only text with a space at either end goes to the shared strings; the rest stays inline, as
 * before (a cell whose string gets no index is written inline). Why: exceljs writes inline text
 * as `<c t="str"><v> x </v></c>`, without `xml:space="preserve"`, and LibreOffice trims it: a
 * cell holding one space (an empty string, decisions.md) came back empty, `' Paris'` as
 * `'Paris'`. A shared string is written `<t xml:space="preserve">`, kept by every reader. Only
 * these few strings wait in memory for the end of the workbook.
 */
function sharedOnlyWithEdgeSpaces(workbook: ExcelJS.stream.xlsx.WorkbookWriter): void {
  const strings = (workbook as WithSharedStrings).sharedStrings;
  const add = strings.add.bind(strings);
  strings.add = (value) => (typeof value === 'string' && EDGE_SPACE.test(value) ? add(value) : undefined);
}

async function writeSheet(workbook: ExcelJS.Workbook, sheet: SheetSpec, lists: ChoiceLists): Promise<void> {
  if (sheet.columns.length > SHEET_LIMITS.columns) {
    throw new ApiError(
      413,
      'too-large',
      `Sheet ${sheet.name} would need ${sheet.columns.length} columns; a sheet holds at most ${SHEET_LIMITS.columns}.`,
    );
  }
  if (sheet.raw) return writeRawSheet(workbook, sheet.name, sheet.raw);
  const headerRows = sheet.directive === undefined ? 1 : 4;
  const worksheet = workbook.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: headerRows }] });
  // Column styles must be set before the first row is committed: the streaming writer writes them first.
  worksheet.columns = sheet.columns.map((column) => ({ width: widthOf(column), style: column.text ? { numFmt: '@' } : {} }));
  if (sheet.directive !== undefined) {
    writeRow(worksheet, 1, [sheet.directive]);
    writeRow(
      worksheet,
      2,
      sheet.columns.map((column) => column.name),
    );
    writeRow(
      worksheet,
      3,
      sheet.columns.map((column) => column.group || null),
    );
    writeRow(
      worksheet,
      4,
      sheet.columns.map((column) => column.title),
      true,
    );
  } else {
    writeRow(
      worksheet,
      1,
      sheet.columns.map((column) => column.name),
      true,
    );
  }
  let rowNumber = headerRows;
  let place = 0;
  for (const cells of sheet.rows) {
    rowNumber += 1 + (sheet.gapsBefore?.get(place) ?? 0);
    place += 1;
    writeRow(worksheet, rowNumber, cells);
    if (place % ROWS_PER_YIELD === 0) await roomInZip(worksheet);
  }
  // Validations are written when the sheet is committed, so they can cover the rows just written.
  const rows = { first: headerRows + 1, last: Math.min(LAST_ROW, rowNumber + SPARE_ROWS) };
  addValidations(worksheet as WithValidations, sheet.columns, rows, lists);
  worksheet.commit();
}

async function writeRawSheet(workbook: ExcelJS.Workbook, name: string, rows: [number, CellValue[]][]): Promise<void> {
  const worksheet = workbook.addWorksheet(name);
  for (const [number, cells] of rows) {
    writeRow(worksheet, number, cells);
    if (number % ROWS_PER_YIELD === 0) await roomInZip(worksheet);
  }
  worksheet.commit();
}

/** XML of a sheet waiting for the zip's compression, in bytes, beyond which writing waits. */
const ZIP_BACKLOG_BYTES = 1 << 20;

/** What exceljs 4.4's streaming worksheet keeps (not in its typings): the stream its XML goes to. */
interface QueueState {
  length?: number;
}
interface ZipInput {
  writableLength?: number;
  _writableState?: QueueState;
  once(event: 'drain', listener: () => void): unknown;
  removeListener(event: 'drain', listener: () => void): unknown;
}
type WithStream = Worksheet & { stream?: { pipes?: ZipInput[] } };

/**
 * Yields, and waits while the zip has not compressed what was written. exceljs's worksheet
 * pipes its XML into the zip without heeding backpressure: a 100,000-line export queued 170 MB
 * of XML ahead of the compression (measured), most of an export's peak memory. Waiting for the
 * zip keeps the queue near 1 MB and costs no time (compression was the slower side anyway).
 */
async function roomInZip(worksheet: Worksheet): Promise<void> {
  const zip = (worksheet as WithStream).stream?.pipes?.[0];
  const backlog = (): number => zip?._writableState?.length ?? zip?.writableLength ?? 0;
  await new Promise((resolve) => setImmediate(resolve));
  while (zip && backlog() > ZIP_BACKLOG_BYTES) {
    // 'drain' when the zip has caught up; the timer only in case it never says so.
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        zip.removeListener('drain', done);
        resolve();
      };
      const timer = setTimeout(done, 20);
      zip.once('drain', done);
    });
  }
}

function writeRow(worksheet: Worksheet, rowNumber: number, cells: CellValue[], bold = false): void {
  const row = worksheet.getRow(rowNumber);
  cells.forEach((value, index) => {
    if (value === null) return;
    const cell = row.getCell(index + 1);
    if (typeof value === 'object' && !(value instanceof Date) && 'numFmt' in value) {
      // The format is part of the number's text (leading zeros): saved with it.
      cell.value = value.number;
      cell.numFmt = value.numFmt;
    } else if (typeof value === 'object' && !(value instanceof Date) && 'noValue' in value) {
      // A formula without a saved result reads back as one (its own text was not kept; NA() is "no value").
      cell.value = { formula: 'NA()' } as ExcelJS.CellFormulaValue;
    } else if (value instanceof Date) {
      // A date needs a date format: in a text column (format '@') it was written as a bare
      // serial number and read back as one (45352, not 2024-03-01). The form is the app's own.
      cell.value = value;
      cell.numFmt = isoDateText(value).length > 10 ? 'yyyy-mm-dd hh:mm:ss' : 'yyyy-mm-dd';
    } else cell.value = value as ExcelJS.CellValue;
    // Text that Excel would evaluate if typed keeps the text format even outside text columns.
    if (typeof value === 'string' && looksLikeFormula(value)) cell.numFmt = '@';
    if (bold) cell.font = { bold: true };
  });
  row.commit();
}

const widthOf = (column: SheetColumn): number => Math.min(60, Math.max(12, column.name.length + 2, column.title.length + 2));

function addValidations(
  worksheet: WithValidations,
  columns: SheetColumn[],
  rows: { first: number; last: number },
  lists: ChoiceLists,
): void {
  columns.forEach((column, index) => {
    if (!column.choices || column.choices.length === 0) return;
    const letter = columnLetter(index + 1);
    worksheet.dataValidations.add(`${letter}${rows.first}:${letter}${rows.last}`, {
      type: 'list',
      allowBlank: true,
      formulae: [lists.formula(column.choices)],
      showErrorMessage: true,
      errorTitle: column.title,
      error: `Choose one of the listed values for ${column.name}.`,
    });
  });
}

/** Drop-down lists: inline when short, else a column of the hidden `#choices` sheet. */
class ChoiceLists {
  private readonly columns: string[][] = [];

  formula(values: string[]): string {
    const inline = values.join(',');
    if (inline.length + 2 <= INLINE_LIST_LIMIT && !values.some((value) => /[,"]/.test(value))) return `"${inline}"`;
    this.columns.push(values);
    const letter = columnLetter(this.columns.length);
    return `'${CHOICES_SHEET}'!$${letter}$1:$${letter}$${values.length}`;
  }

  write(workbook: ExcelJS.Workbook): void {
    if (this.columns.length === 0) return;
    const worksheet = workbook.addWorksheet(CHOICES_SHEET, { state: 'hidden' });
    worksheet.columns = this.columns.map(() => ({ width: 30, style: { numFmt: '@' } }));
    const height = Math.max(...this.columns.map((values) => values.length));
    for (let index = 0; index < height; index += 1)
      writeRow(
        worksheet,
        index + 1,
        this.columns.map((values) => values[index] ?? null),
      );
    worksheet.commit();
  }
}
