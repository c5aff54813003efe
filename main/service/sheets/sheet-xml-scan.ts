/**
 * What the row reader (xlsx-row-stream.ts) does not report about a worksheet, found by scanning
 * its XML while the package is checked: merged ranges (the reader skips `<mergeCell>`, as exceljs
 * did, so the covered cells would silently read as empty), any cell beyond column XFD, and
 * whether the sheet's XML is whole.
 */
export interface MergeRange {
  /** `A6:A8` */
  ref: string;
  top: number;
  left: number;
  bottom: number;
  right: number;
}

const MERGE = /<(?:\w+:)?mergeCell\s[^>]*?\bref="([A-Z]{1,3})(\d{1,7}):([A-Z]{1,3})(\d{1,7})"/g;
// Only references of three letters or more can pass XFD; matching just those keeps the scan cheap.
const WIDE_REF = /\br="([A-Z]{3,})\d/g;
/** Enough to hold any one tag that straddles two chunks. */
const OVERLAP = 512;
const MAX_MERGES = 10_000;

/** 1-based column number of `A`..`XFD` (and beyond, to tell how far a cell is out). */
export function columnNumber(letters: string): number {
  let value = 0;
  for (const letter of letters) value = value * 26 + (letter.charCodeAt(0) - 64);
  return value;
}

export function columnLetters(column: number): string {
  let letters = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

export class SheetXmlScan {
  readonly merges: MergeRange[] = [];
  /** The first cell reference found beyond the column limit, if any. */
  tooWide: string | null = null;
  private readonly seen = new Set<string>();
  private tail = '';

  constructor(private readonly maxColumn: number) {}

  push(chunk: Buffer): void {
    const text = this.tail + chunk.toString('latin1');
    this.scanMerges(text);
    if (this.tooWide === null) this.scanCells(text);
    this.tail = text.slice(-OVERLAP);
  }

  /**
   * The row reader, like exceljs's before it, does not require the XML to end, so a sheet cut
   * short would read as fewer rows without a word: the scan checks the sheet closes.
   */
  get complete(): boolean {
    return /(<\/(?:\w+:)?worksheet>|<(?:\w+:)?worksheet\b[^>]*\/>)\s*$/.test(this.tail);
  }

  private scanMerges(text: string): void {
    if (!text.includes('mergeCell')) return;
    for (const match of text.matchAll(MERGE)) {
      const ref = `${match[1]}${match[2]}:${match[3]}${match[4]}`;
      if (this.seen.has(ref) || this.merges.length >= MAX_MERGES) continue;
      this.seen.add(ref);
      this.merges.push({
        ref,
        left: columnNumber(match[1]),
        top: Number(match[2]),
        right: columnNumber(match[3]),
        bottom: Number(match[4]),
      });
    }
  }

  private scanCells(text: string): void {
    for (const match of text.matchAll(WIDE_REF)) {
      const letters = match[1];
      if (columnNumber(letters) > this.maxColumn) {
        this.tooWide = letters;
        return;
      }
    }
  }
}
