import { rawCellOf, type RawCell } from './cell-value';
import type { SheetRow } from './sheet-reader';
import type { XlsxBook } from './xlsx-book';
import { isDateFormat, serialToDate } from './xlsx-dates';
import { letterAttributes, MalformedXml, XmlTokenizer, type XmlHandler } from './xlsx-xml-tokens';
import { damaged, type ZipEntry } from './zip-directory';
import { inflatedChunks } from './zip-inflate';

/**
 * A worksheet's rows, read straight from its inflated XML chunk by chunk: only `<sheetData>`'s
 * rows and cells are looked at, and each finished row is handed on as a SheetRow (its number and
 * its non-empty cells by 1-based column), holding no more of the sheet than the row being read.
 *
 * The values are those exceljs's streaming reader gave (the reader this replaces, which the
 * loader and its tests were built on), quirks included: element names are matched without
 * namespace prefixes only; a row's number is its `r` attribute (a row without one has none, and
 * a cell in it makes the file unreadable); a cell's column is the letters of its `r`, its row
 * part ignored; a value is the text from the cell's last `<v>`, `<is>` or `<t>` to its end; a
 * formula's result is a number unless the cell says `t="str"`; numbers whose style has a date
 * format are dates; `t="str"` and inline text are unescaped once more (`&amp;lt;` reads `<`).
 * Two deliberate differences: a phonetic reading (`<rPh>`) in inline text is not taken for the
 * text, as in shared strings (xlsx-shared-strings.ts); and inline rich text reads as all its
 * runs, where exceljs kept the last one only and silently lost the rest.
 */
const NO_VALUE: RawCell = { kind: 'no-value' };
const UNREADABLE: RawCell = { kind: 'error', text: 'an unreadable value' };
const MAX_COLUMN = 16_384;
/**
 * The cells Excel, LibreOffice and exceljs write most, taken whole: a plain value or inline text
 * with no entity, no line end and no control character (those are left to the tokenizer).
 */
const COMMON_CELL =
  // eslint-disable-next-line no-control-regex -- values holding characters XML forbids are left to the tokenizer
  /<c r="([A-Z]{1,3})\d{1,7}"(?: s="(\d{1,9})")?(?: t="([a-zA-Z]{1,9})")?(?:\/>|>(?:<v>([^<&\x00-\x08\x0B-\x1F\uFFFE\uFFFF]*)<\/v>|<is><t(?: xml:space="preserve")?>([^<&\x00-\x08\x0B-\x1F\uFFFE\uFFFF]*)<\/t><\/is>)?<\/c>)/y;

/** The column of a cell reference, read the way exceljs reads it (`$` ignored, letters then digits). */
function columnOf(ref: string | undefined): number {
  if (ref === undefined) throw new MalformedXml('a cell without a reference');
  let column = 0;
  let hasColumn = false;
  let hasRow = false;
  for (let at = 0; at < ref.length; at += 1) {
    const code = ref.charCodeAt(at);
    if (!hasRow && code >= 65 && code <= 90) {
      hasColumn = true;
      column = column * 26 + code - 64;
    } else if (code >= 48 && code <= 57) hasRow = true;
    else if (hasRow && hasColumn && code !== 36) break;
  }
  if (!hasColumn || column > MAX_COLUMN) throw new MalformedXml(`a cell reference ${ref} without a column`);
  return column;
}

/** exceljs unescapes `t="str"` and inline text once more after the XML parser did. */
const AGAIN = /&([a-z]*);/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };
const unescapeAgain = (text: string): string =>
  text.includes('&') ? text.replace(AGAIN, (match, name: string) => NAMED[name] ?? match) : text;

class SheetRowsHandler implements XmlHandler {
  wantsText = false;
  ready: SheetRow[] = [];
  private inRows = false;
  private row: SheetRow | null = null;
  /** A cell of this row may be placed: its number reads as an Excel row (exceljs checks the address). */
  private rowAddressable = false;
  private rowNumFmt: string | undefined;
  private maxColumn = 0;
  private unordered = false;
  private columns: number[] = [];
  /** The format of each cell with its own style, for a column given twice in one row. */
  private styled: Map<number, string | undefined> | null = null;
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
  /** Text goes to the value (after `<v>`, `<is>`, `<t>`), not to a formula. */
  private valueIsCurrent = false;
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
        this.styleId = this.style === undefined ? NaN : parseInt(this.style, 10);
        this.hasFormula = false;
        this.value = undefined;
        this.valueIsCurrent = false;
        this.phonetic = 0;
        this.inInline = false;
        this.wantsText = false;
        break;
      case 'v':
      case 'is':
      case 't':
        if (!this.inCell || this.phonetic > 0) break;
        // Inline rich text is one `<t>` per run: the runs add up (exceljs kept only the last).
        if (!(name === 't' && this.inInline)) this.value = '';
        this.inInline = name === 'is' || this.inInline;
        this.valueIsCurrent = true;
        this.wantsText = true;
        break;
      case 'f':
        if (!this.inCell || this.phonetic > 0) break;
        this.hasFormula = true;
        this.valueIsCurrent = false;
        this.wantsText = false;
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
      case 'c':
        if (this.row && this.inCell) this.finishCell(this.row, columnOf(this.ref));
        this.inCell = false;
        this.wantsText = false;
        break;
      case 'is':
        this.inInline = false;
        break;
      case 'rPh':
        if (!this.inCell || this.phonetic === 0) break;
        this.phonetic -= 1;
        this.wantsText = this.valueIsCurrent && this.phonetic === 0;
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
    this.styleId = match[2] === undefined ? NaN : parseInt(match[2], 10);
    this.type = match[3];
    this.hasFormula = false;
    this.value = match[4] ?? match[5];
    this.finishCell(this.row, columnOf(match[1]));
    this.inCell = false;
    this.wantsText = false;
    return COMMON_CELL.lastIndex;
  }

  /** Cells by ascending column, as exceljs gives them, when the file placed one out of order. */
  private inOrder(row: SheetRow): SheetRow {
    if (!this.unordered) return row;
    return { number: row.number, cells: new Map([...row.cells].sort(([a], [b]) => a - b)) };
  }

  private openRow(source: string, start: number, end: number): void {
    this.ref = undefined;
    this.style = undefined;
    letterAttributes(source, start, end, this.take);
    const number = parseInt(this.ref ?? '', 10);
    const style = this.style;
    this.rowNumFmt = style ? this.book.styles.style(parseInt(style, 10))?.numFmt : undefined;
    this.row = { number, cells: new Map() };
    this.rowAddressable = Number.isInteger(number) && number >= 0 && number < 1e21;
    this.maxColumn = 0;
    this.unordered = false;
    this.columns = [];
    this.styled = null;
  }

  private finishCell(row: SheetRow, column: number): void {
    const again = column <= this.maxColumn && this.columns.includes(column);
    if (!again) {
      if (!this.rowAddressable) throw new MalformedXml(`a cell in row ${row.number}, which is no row number`);
      this.columns.push(column);
      if (column > this.maxColumn) this.maxColumn = column;
      else this.unordered = true;
    }
    // The format the cell had before: a column given twice keeps its first style unless restyled.
    let numFmt = again ? (this.styled?.has(column) ? this.styled.get(column) : this.rowNumFmt) : this.rowNumFmt;
    if (this.styleId) {
      const style = this.book.styles.style(this.styleId);
      if (style) {
        numFmt = style.numFmt;
        (this.styled ??= new Map()).set(column, numFmt);
      }
    }
    if (this.hasFormula || this.value !== undefined) {
      const raw = this.valueOf(numFmt);
      if (raw) row.cells.set(column, raw);
      else if (again) row.cells.delete(column);
    } else if (again) {
      // exceljs reads a number's format when the row is done, from the cell's last style.
      const held = row.cells.get(column);
      if (held?.kind === 'number' && held.numFmt !== numFmt) row.cells.set(column, { ...held, numFmt });
    }
  }

  private valueOf(numFmt: string | undefined): RawCell | undefined {
    const value = this.value;
    if (this.hasFormula) {
      if (value === undefined) return NO_VALUE;
      return rawCellOf({ formula: '', result: this.type === 'str' ? unescapeAgain(value) : parseFloat(value) }, numFmt);
    }
    if (value === undefined) return undefined;
    switch (this.type) {
      case 's': {
        const strings = this.book.strings;
        return strings ? strings[parseInt(value, 10)] : UNREADABLE;
      }
      case 'inlineStr':
      case 'str': {
        const text = unescapeAgain(value);
        return text === '' ? undefined : { kind: 'text', text };
      }
      case 'e':
        return { kind: 'error', text: value };
      case 'b':
        return { kind: 'boolean', value: parseInt(value, 10) !== 0 };
      default: {
        const number = parseFloat(value);
        if (isDateFormat(numFmt)) return rawCellOf(serialToDate(number, this.book.date1904));
        return Number.isFinite(number) ? { kind: 'number', value: number, numFmt } : rawCellOf(number, numFmt);
      }
    }
  }
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
    if (error instanceof MalformedXml) throw damaged(fileName, 'its XML could not be read');
    throw error;
  }
  const rows = parser.take();
  if (rows.length > 0) yield rows;
}
