import { rawCellOf, type RawCell } from './cell-value';
import type { SheetRow } from './sheet-reader';
import type { XlsxBook } from './xlsx-book';
import { isDateFormat, isDateSerial, isoDate, serialToDate } from './xlsx-dates';
import { decodeEscapes } from './xlsx-text';
import { letterAttributes, MalformedXml, XmlTokenizer, type XmlHandler } from './xlsx-xml-tokens';
import { damaged, type ZipEntry } from './zip-directory';
import { inflatedChunks } from './zip-inflate';

/**
 * A worksheet's rows, read straight from its inflated XML chunk by chunk: only `<sheetData>`'s
 * rows and cells are looked at, and each finished row is handed on as a SheetRow (its number and
 * its non-empty cells by 1-based column), holding no more of the sheet than the row being read.
 *
 * Cells read as the spreadsheet program shows them (ECMA-376 part 1, 18.3.1.4 and 18.17), which
 * is how the reference readers read them (see README.md):
 * - a row's number is its `r`, or the row after the one before when it has none; a cell's
 *   column is the letters of its `r`, or the column after the one before in its row;
 * - a cell's style is its own `s` (style 0 when it has none: a row's style is for new cells);
 * - a value is the text inside its `<v>`, or its inline string's `<t>` runs joined (a phonetic
 *   reading `<rPh>` is not part of it); whitespace between elements is not content;
 * - the type `t` says what the value is, for a formula's cached result as for a constant:
 *   `s` a shared string, `str` and `inlineStr` text, `b` a boolean, `e` an error (`#N/A`),
 *   `d` an ISO 8601 date; otherwise a number, a date when its format is a date format;
 * - a formula with no cached result reads as `no-value`, an empty text as no cell;
 * - text decodes the `_xHHHH_` escapes of ST_Xstring (`_x000D_` is a carriage return).
 */
const NO_VALUE: RawCell = { kind: 'no-value' };
const UNREADABLE: RawCell = { kind: 'error', text: 'an unreadable value' };
const MAX_COLUMN = 16_384;
/** Excel's last row; a row numbered beyond it is no row of a spreadsheet. */
const MAX_ROW = 1_048_576;
/**
 * The cells Excel, LibreOffice and exceljs write most, taken whole: a plain value or inline text
 * with no entity, no line end and no control character (those are left to the tokenizer).
 */
const COMMON_CELL =
  // eslint-disable-next-line no-control-regex -- values holding characters XML forbids are left to the tokenizer
  /<c r="([A-Z]{1,3})\d{1,7}"(?: s="(\d{1,9})")?(?: t="([a-zA-Z]{1,9})")?(?:\/>|>(?:<v>([^<&\x00-\x08\x0B-\x1F\uFFFE\uFFFF]*)<\/v>|<is><t(?: xml:space="preserve")?>([^<&\x00-\x08\x0B-\x1F\uFFFE\uFFFF]*)<\/t><\/is>)?<\/c>)/y;

/** The column of a cell reference: its letters (`$` ignored); the row part is the row's business. */
function columnOf(ref: string, fallback: number): number {
  let column = 0;
  let hasColumn = false;
  for (let at = 0; at < ref.length; at += 1) {
    const code = ref.charCodeAt(at);
    if (code >= 65 && code <= 90) {
      hasColumn = true;
      column = column * 26 + code - 64;
    } else if (code >= 97 && code <= 122) {
      hasColumn = true;
      column = column * 26 + code - 96;
    } else if (code !== 36) break;
  }
  if (column > MAX_COLUMN) throw new MalformedXml(`a cell reference ${ref} beyond column XFD`);
  // A reference without letters places nothing: the cell follows the one before, as with none.
  return hasColumn ? column : fallback;
}

class SheetRowsHandler implements XmlHandler {
  wantsText = false;
  ready: SheetRow[] = [];
  private inRows = false;
  private row: SheetRow | null = null;
  private lastRowNumber = 0;
  private lastColumn = 0;
  private maxColumn = 0;
  private unordered = false;
  private inCell = false;
  private ref: string | undefined;
  private styleId = 0;
  private type: string | undefined;
  private style: string | undefined;
  /** `r`, `s` and `t` of a `<row>` or `<c>`. */
  private readonly take = (letter: number, value: string): void => {
    if (letter === 114) this.ref = value;
    else if (letter === 115) this.style = value;
    else if (letter === 116) this.type = value;
  };
  private hasFormula = false;
  private value: string | undefined;
  /** Depth of `<rPh>` in the cell: its text is left out. */
  private phonetic = 0;
  /** Inside the cell's `<is>`: its runs' texts join. */
  private inInline = false;

  constructor(private readonly book: XlsxBook) {}

  open(name: string, source: string, start: number, end: number): void {
    switch (name) {
      case 'c':
        if (!this.row) break;
        this.inCell = true;
        this.ref = undefined;
        this.style = undefined;
        this.type = undefined;
        letterAttributes(source, start, end, this.take);
        this.styleId = this.style === undefined ? 0 : parseInt(this.style, 10);
        this.hasFormula = false;
        this.value = undefined;
        this.phonetic = 0;
        this.inInline = false;
        this.wantsText = false;
        break;
      case 'v':
        if (!this.inCell || this.phonetic > 0) break;
        this.value = '';
        this.wantsText = true;
        break;
      case 'is':
        if (!this.inCell) break;
        this.inInline = true;
        this.value = '';
        break;
      case 't':
        if (!this.inCell || this.phonetic > 0) break;
        // Inline rich text is one `<t>` per run: the runs add up.
        if (!this.inInline) this.value = '';
        this.wantsText = true;
        break;
      case 'f':
        if (this.inCell) this.hasFormula = true;
        break;
      case 'rPh':
        if (!this.inCell) break;
        this.phonetic += 1;
        this.wantsText = false;
        break;
      case 'row':
        if (this.inRows) this.openRow(source, start, end);
        break;
      case 'sheetData':
        this.inRows = true;
        break;
      default:
        break;
    }
  }

  close(name: string): void {
    switch (name) {
      case 'v':
      case 't':
        this.wantsText = false;
        break;
      case 'c':
        if (this.row && this.inCell)
          this.finishCell(this.row, this.ref === undefined ? this.lastColumn + 1 : columnOf(this.ref, this.lastColumn + 1));
        this.inCell = false;
        this.wantsText = false;
        break;
      case 'is':
        this.inInline = false;
        break;
      case 'rPh':
        if (this.inCell && this.phonetic > 0) this.phonetic -= 1;
        break;
      case 'row':
        if (this.row) this.ready.push(this.inOrder(this.row));
        this.row = null;
        break;
      case 'sheetData':
        this.inRows = false;
        break;
      default:
        break;
    }
  }

  text(text: string): void {
    this.value += text;
  }

  shortcut(source: string, at: number): number {
    if (!this.row || source.charCodeAt(at + 1) !== 99 || source.charCodeAt(at + 2) !== 32) return -1;
    COMMON_CELL.lastIndex = at;
    const match = COMMON_CELL.exec(source);
    if (!match) return -1;
    this.styleId = match[2] === undefined ? 0 : parseInt(match[2], 10);
    this.type = match[3];
    this.hasFormula = false;
    this.value = match[4] ?? match[5];
    this.finishCell(this.row, columnOf(match[1], this.lastColumn + 1));
    this.inCell = false;
    this.wantsText = false;
    return COMMON_CELL.lastIndex;
  }

  /** Cells by ascending column when the file placed one out of order. */
  private inOrder(row: SheetRow): SheetRow {
    if (!this.unordered) return row;
    return { number: row.number, cells: new Map([...row.cells].sort(([a], [b]) => a - b)) };
  }

  private openRow(source: string, start: number, end: number): void {
    this.ref = undefined;
    letterAttributes(source, start, end, this.take);
    // Set by `take`, which TypeScript does not follow.
    const ref = this.ref as string | undefined;
    let number = this.lastRowNumber + 1;
    if (ref !== undefined) {
      number = Number(ref.trim());
      if (!Number.isInteger(number) || number < 1 || number > MAX_ROW) throw new MalformedXml(`a row numbered ${ref}`);
    }
    this.lastRowNumber = number;
    this.row = { number, cells: new Map() };
    this.lastColumn = 0;
    this.maxColumn = 0;
    this.unordered = false;
  }

  private finishCell(row: SheetRow, column: number): void {
    if (column > MAX_COLUMN) throw new MalformedXml(`a cell beyond column ${MAX_COLUMN}`);
    this.lastColumn = column;
    // A column at or before the last one (out of order, or given twice): the row is sorted when done.
    if (column > this.maxColumn) this.maxColumn = column;
    else this.unordered = true;
    const numFmt = Number.isNaN(this.styleId) ? undefined : this.book.styles.style(this.styleId)?.numFmt;
    const raw = this.valueOf(numFmt);
    // A column given twice in a row: the last one is the cell, as every reader has it.
    if (raw) row.cells.set(column, raw);
    else row.cells.delete(column);
  }

  private valueOf(numFmt: string | undefined): RawCell | undefined {
    const value = this.value;
    if (value === undefined) return this.hasFormula ? NO_VALUE : undefined;
    switch (this.type) {
      case 's': {
        if (value.trim() === '') return undefined;
        const strings = this.book.strings;
        const index = parseInt(value, 10);
        return strings ? (index >= 0 && index < strings.length ? strings[index] : UNREADABLE) : UNREADABLE;
      }
      case 'inlineStr':
      case 'str': {
        const text = decodeEscapes(value);
        return text === '' ? undefined : { kind: 'text', text };
      }
      case 'e': {
        const text = value.trim();
        return text === '' ? undefined : { kind: 'error', text };
      }
      case 'b':
        return booleanOf(value.trim());
      case 'd':
        return isoDateCell(value.trim());
      default: {
        const text = value.trim();
        if (text === '') return this.hasFormula ? NO_VALUE : undefined;
        const number = Number(text);
        if (!Number.isFinite(number)) return UNREADABLE;
        if (isDateFormat(numFmt) && isDateSerial(number, this.book.date1904)) return rawCellOf(serialToDate(number, this.book.date1904));
        return { kind: 'number', value: number, numFmt };
      }
    }
  }
}

function booleanOf(text: string): RawCell | undefined {
  if (text === '1' || text.toLowerCase() === 'true') return { kind: 'boolean', value: true };
  if (text === '0' || text.toLowerCase() === 'false') return { kind: 'boolean', value: false };
  return text === '' ? undefined : UNREADABLE;
}

function isoDateCell(text: string): RawCell | undefined {
  if (text === '') return undefined;
  const date = isoDate(text);
  return date ? { kind: 'date', value: date } : { kind: 'error', text: 'an impossible date' };
}

/** Rows of a sheet's XML pushed in chunks of any size; `take()` hands over the rows finished so far. */
export class SheetRowParser {
  private readonly handler: SheetRowsHandler;
  private readonly tokens: XmlTokenizer;

  constructor(book: XlsxBook) {
    this.handler = new SheetRowsHandler(book);
    this.tokens = new XmlTokenizer(this.handler);
  }

  /** Throws MalformedXml where exceljs's parser would have failed. */
  push(chunk: Buffer): void {
    this.tokens.push(chunk);
  }

  end(): void {
    this.tokens.end();
  }

  take(): SheetRow[] {
    const rows = this.handler.ready;
    this.handler.ready = [];
    return rows;
  }
}

/** Batches of rows, one per inflated chunk: the rows of a chunk cost one await, not one each. */
export async function* sheetRowBatches(path: string, entry: ZipEntry, book: XlsxBook, fileName: string): AsyncGenerator<SheetRow[]> {
  const parser = new SheetRowParser(book);
  try {
    for await (const chunk of inflatedChunks(path, entry, fileName)) {
      parser.push(chunk);
      const rows = parser.take();
      if (rows.length > 0) yield rows;
    }
    parser.end();
  } catch (error) {
    if (error instanceof MalformedXml)
      throw damaged(fileName, `its part ${entry.name} cannot be read as spreadsheet XML (${error.message})`);
    throw error;
  }
  const rows = parser.take();
  if (rows.length > 0) yield rows;
}
