import type { ZipEntry } from './zip-directory';
import { inflatedChunks } from './zip-inflate';

/**
 * How a worksheet is laid out on screen, which the row reader does not look at: its column widths
 * (`<cols>`) and its frozen pane (`<sheetView><pane state="frozen">`). Both stand before
 * `<sheetData>` in a worksheet part (the schema's order), so only the part's head is inflated.
 */
export interface SheetLayout {
  /** Width in Excel's character units by 1-based column, for the columns the file sets. */
  widths: Map<number, number>;
  frozenRows: number;
  frozenColumns: number;
}

/** The most of a part's head read looking for `<sheetData`: sheet views and column lists are small. */
const HEAD_LIMIT = 4 * 1024 * 1024;
/** A `<col>` range wider than this is a whole-sheet style, not widths anyone set per column. */
const MAX_RANGE = 16_384;
const SHEET_DATA = /<(?:\w+:)?sheetData[\s>/]/;

const ATTRIBUTE = /([\w:]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of tag.matchAll(ATTRIBUTE)) found.set(match[1].split(':').pop() as string, match[2] ?? match[3] ?? '');
  return found;
}

const wholeNumber = (text: string | undefined): number => {
  const value = Number(text ?? '0');
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
};

/** Reads the layout from the head of a worksheet's XML (everything before `<sheetData`). */
export function layoutOfHead(head: string): SheetLayout {
  const widths = new Map<number, number>();
  for (const [tag] of head.matchAll(/<(?:\w+:)?col\s[^>]*>/g)) {
    const col = attributes(tag);
    const min = wholeNumber(col.get('min'));
    const max = wholeNumber(col.get('max'));
    const width = Number(col.get('width'));
    if (min < 1 || max < min || max - min > MAX_RANGE || !Number.isFinite(width) || width < 0) continue;
    // A hidden column shows as no width at all.
    const shown = ['1', 'true'].includes(col.get('hidden') ?? '') ? 0 : width;
    for (let column = min; column <= max; column += 1) widths.set(column, shown);
  }
  let frozenRows = 0;
  let frozenColumns = 0;
  const pane = /<(?:\w+:)?pane\s[^>]*>/.exec(head);
  if (pane) {
    const values = attributes(pane[0]);
    // A split pane (not frozen) moves with the scroll: only frozen panes stay in place.
    if (values.get('state') === 'frozen' || values.get('state') === 'frozenSplit') {
      frozenRows = wholeNumber(values.get('ySplit'));
      frozenColumns = wholeNumber(values.get('xSplit'));
    }
  }
  return { widths, frozenRows, frozenColumns };
}

/** Inflates the head of a worksheet part (the file has been checked by workbook-package.ts) and reads its layout. */
export async function readSheetLayout(path: string, entry: ZipEntry, fileName: string): Promise<SheetLayout> {
  let head = '';
  for await (const chunk of inflatedChunks(path, entry, fileName)) {
    // latin1: the attributes read are ASCII, and a character split between two chunks cannot break them.
    head += chunk.toString('latin1');
    const end = SHEET_DATA.exec(head);
    if (end) return layoutOfHead(head.slice(0, end.index));
    // A head this long is not a layout anyone wrote: what was read of it is enough.
    if (head.length > HEAD_LIMIT) break;
  }
  return layoutOfHead(head);
}

/** Excel's width in characters as CSS pixels (the width of its default font's digit, 7 px, plus padding). */
export const widthInPixels = (characters: number): number => Math.round(characters * 7 + 5);
