import { attributeOf, partParser, type PartParser, type XmlHandler } from './xlsx-xml-tokens';

/**
 * The number format of each cell style (`<cellXfs>` of the styles part), which is all the reader
 * needs of the styles: the format tells a date from a number and keeps zero-padded numbers. A
 * style with numFmtId 0 (General) or none has no format; a custom `<numFmt>` wins over the
 * built-in one of the same id; backslash escapes are dropped from custom format codes. A workbook
 * without styles, or a cell naming a style that is not there, reads as General, as Excel and the
 * reference readers read it.
 */
/** What a style id gives: null when there is no such style, else its format (maybe none). */
export type CellStyle = { numFmt: string | undefined } | null;

/** Built-in formats as exceljs names them (ECMA-376 part 1, 18.8.30, the locale-independent ones). */
const BUILT_IN_FORMATS: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy "h":mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00 ;(#,##0.00)',
  40: '#,##0.00 ;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
};

/**
 * Ids the standard leaves to the locale (ECMA-376 part 1, 18.8.30: Chinese, Japanese, Korean
 * and Thai date and time formats, and currencies), written by Excel in those locales without a
 * `<numFmt>`: taken as the built-in format of the same kind, so their dates read as dates.
 */
const LOCALE_FORMATS: Record<number, number> = {
  5: 37,
  6: 38,
  7: 39,
  8: 40,
  27: 14,
  28: 14,
  29: 14,
  30: 14,
  31: 14,
  32: 21,
  33: 21,
  34: 21,
  35: 21,
  36: 14,
  50: 14,
  51: 14,
  52: 14,
  53: 14,
  54: 14,
  55: 14,
  56: 14,
  57: 14,
  58: 14,
  59: 1,
  60: 2,
  61: 3,
  62: 4,
  67: 9,
  68: 10,
  69: 12,
  70: 13,
  71: 14,
  72: 14,
  73: 15,
  74: 16,
  75: 17,
  76: 20,
  77: 21,
  78: 22,
  79: 45,
  80: 46,
  81: 47,
};

const builtIn = (id: number): string | undefined => BUILT_IN_FORMATS[id] ?? BUILT_IN_FORMATS[LOCALE_FORMATS[id] ?? -1];

export class StyleTable {
  private readonly styles: CellStyle[] = [];

  constructor(
    private readonly cellFormats: number[],
    private readonly customFormats: Map<number, string>,
  ) {}

  static none(): StyleTable {
    return new StyleTable([], new Map());
  }

  style(id: number): CellStyle {
    const known = this.styles[id];
    if (known !== undefined) return known;
    const formatId = this.cellFormats[id];
    if (formatId === undefined) return null;
    // An id of 0 (General) or one that is not a number gives no format at all.
    const numFmt = formatId ? this.customFormats.get(formatId) || builtIn(formatId) : undefined;
    const style = { numFmt };
    if (id >= 0 && id < 1_000_000) this.styles[id] = style;
    return style;
  }
}

class StylesHandler implements XmlHandler {
  readonly wantsText = false;
  cellFormats: number[] = [];
  readonly customFormats = new Map<number, string>();
  private depth = 0;
  private inCellXfs = false;
  private inNumFmts = false;
  private collected: number[] = [];

  open(name: string, source: string, start: number, end: number): void {
    this.depth += 1;
    if (this.depth === 2) {
      this.inCellXfs = name === 'cellXfs';
      this.inNumFmts = name === 'numFmts';
      if (this.inCellXfs) this.collected = [];
    } else if (this.depth === 3 && this.inCellXfs && name === 'xf') {
      this.collected.push(parseInt(attributeOf(source, start, end, 'numFmtId') ?? '', 10));
    } else if (this.depth === 3 && this.inNumFmts && name === 'numFmt') {
      const code = attributeOf(source, start, end, 'formatCode');
      if (code === undefined) return;
      this.customFormats.set(parseInt(attributeOf(source, start, end, 'numFmtId') ?? '', 10), code.replace(/\\(.)/g, '$1'));
    }
  }

  close(): void {
    if (this.depth === 2 && this.inCellXfs) {
      if (this.collected.length > 0) this.cellFormats = this.collected;
      this.inCellXfs = false;
    }
    this.depth -= 1;
  }

  text(): void {}
}

export function stylesParser(): PartParser<StyleTable> {
  return partParser(new StylesHandler(), (handler) => new StyleTable(handler.cellFormats, handler.customFormats));
}
