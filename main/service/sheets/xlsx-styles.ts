import { attributeOf, MalformedXml, partParser, type PartParser, type XmlHandler } from './xlsx-xml-tokens';

/**
 * The number format of each cell style (`<cellXfs>` of `xl/styles.xml`), which is all the reader
 * needs of the styles: the format tells a date from a number and keeps zero-padded numbers. The
 * rules are exceljs's (the reader it replaces, whose values the loader was built on): a style
 * with numFmtId 0 (General) or none has no format; a custom `<numFmt>` wins over the built-in
 * one of the same id; backslash escapes are dropped from custom format codes.
 */
/** Where exceljs failed on a style lookup, the file is as unreadable as malformed XML. */
export class StyleLookupFailed extends MalformedXml {}

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

export class StyleTable {
  private readonly styles: CellStyle[] = [];

  /**
   * `cellFormats` undefined: the workbook's styles could not serve a lookup, and exceljs failed on
   * one (no styles part: style 0; a styles part without `<cellXfs>` or never closed: any style).
   */
  constructor(
    private readonly cellFormats: number[] | undefined,
    private readonly customFormats: Map<number, string>,
    private readonly failsOnZeroOnly = false,
  ) {}

  static none(): StyleTable {
    return new StyleTable(undefined, new Map(), true);
  }

  style(id: number): CellStyle {
    const known = this.styles[id];
    if (known !== undefined) return known;
    if (!this.cellFormats) {
      if (this.failsOnZeroOnly && id !== 0) return null;
      throw new StyleLookupFailed(`style ${id}`);
    }
    const formatId = this.cellFormats[id];
    if (formatId === undefined) return null;
    // An id of 0 (General) or one that is not a number gives no format at all.
    const numFmt = formatId ? this.customFormats.get(formatId) || BUILT_IN_FORMATS[formatId] : undefined;
    const style = { numFmt };
    if (id >= 0 && id < 1_000_000) this.styles[id] = style;
    return style;
  }
}

class StylesHandler implements XmlHandler {
  readonly wantsText = false;
  cellFormats: number[] | undefined;
  readonly customFormats = new Map<number, string>();
  closed = false;
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
      if (code === undefined) throw new StyleLookupFailed('a number format without its code');
      this.customFormats.set(parseInt(attributeOf(source, start, end, 'numFmtId') ?? '', 10), code.replace(/\\(.)/g, '$1'));
    }
  }

  close(name: string): void {
    if (this.depth === 2 && this.inCellXfs) {
      if (this.collected.length > 0) this.cellFormats = this.collected;
      this.inCellXfs = false;
    }
    if (this.depth === 1 && name === 'styleSheet') this.closed = true;
    this.depth -= 1;
  }

  text(): void {}
}

export function stylesParser(): PartParser<StyleTable> {
  return partParser(
    new StylesHandler(),
    (handler) => new StyleTable(handler.closed ? handler.cellFormats : undefined, handler.customFormats),
  );
}
