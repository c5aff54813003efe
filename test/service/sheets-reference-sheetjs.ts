import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import * as XLSX from 'xlsx';

/**
 * The reference reader of the real-world corpus test (sheets-corpus.test.ts): SheetJS 0.18.5,
 * the most forgiving .xlsx reader in JavaScript, used by the tests only. It gives every
 * worksheet of a workbook, in tab order, as its non-empty cells in a normalized form that our
 * own reader's cells are brought to as well (`ownValue`), so the two compare with `===`.
 *
 * How values are normalized, and why:
 * - text exactly as SheetJS decodes it (shared, inline and formula strings alike); an empty
 *   string is no cell, as it is for our reader (an empty cell means "not given");
 * - numbers exactly (both sides parse the same `<v>` text);
 * - booleans; errors by their text (`#N/A`);
 * - dates as the calendar date and time the spreadsheet program shows, as ISO text to the
 *   millisecond (`1900-01-01T00:00:00.000Z`). SheetJS is read with `cellDates: false` (its Date
 *   objects are built in local time, and it ignores date1904 when it builds them) and
 *   `cellNF: true`: a number is a date where `SSF.is_date` sees a date format, and its serial is
 *   turned into the date Excel shows, honouring the workbook's date1904 flag and Excel's
 *   fictitious 1900-02-29 (serial 60; serials 1 to 59 are 1900-01-01 to 1900-02-28). A serial
 *   under 1 in a 1900 workbook is a time of day alone (`T12:00:00.000`). Cells saved as `t="d"`
 *   (ISO text) are dates from their own text, whatever their format (a time alone, `10:10:10`, is a
 *   time of day);
 * - formulas by their cached result; a formula without one is no cell (SheetJS's `cellFormula`
 *   is off, so it does not invent a 0 for it);
 * - only worksheets: chart sheets, dialog sheets and macro sheets hold no cells the bulk load
 *   reads, and our reader lists worksheets only.
 */
export type CorpusValue =
  | { kind: 'text'; text: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'error'; text: string }
  | { kind: 'date'; iso: string };

export interface CorpusSheet {
  name: string;
  /** Non-empty cells by A1 address. */
  cells: Map<string, CorpusValue>;
}

export type CorpusBook = { sheets: CorpusSheet[]; date1904: boolean } | { refused: string };

const DAY_MS = 86_400_000;
/** The largest serial Excel shows as a date (9999-12-31). */
const LAST_SERIAL = 2_958_465;
const ERRORS: Record<number, string> = {
  0x00: '#NULL!',
  0x07: '#DIV/0!',
  0x0f: '#VALUE!',
  0x17: '#REF!',
  0x1d: '#NAME?',
  0x24: '#NUM!',
  0x2a: '#N/A',
  0x2b: '#GETTING_DATA',
};

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function timeText(msOfDay: number): string {
  const h = Math.floor(msOfDay / 3_600_000);
  const m = Math.floor((msOfDay % 3_600_000) / 60_000);
  const s = Math.floor((msOfDay % 60_000) / 1000);
  return `T${pad(h)}:${pad(m)}:${pad(s)}.${pad(msOfDay % 1000, 3)}`;
}

/** The date or time of day Excel shows for a serial, or undefined where it shows `####`. */
export function serialDateText(serial: number, date1904: boolean): string | undefined {
  if (!(serial >= 0) || serial > LAST_SERIAL + 1) return undefined;
  let whole = Math.floor(serial);
  let ms = Math.round((serial - whole) * DAY_MS);
  if (ms === DAY_MS) {
    whole += 1;
    ms = 0;
  }
  if (date1904) return new Date(Date.UTC(1904, 0, 1) + whole * DAY_MS + ms).toISOString();
  if (whole === 0) return timeText(ms);
  if (whole === 60) return `1900-02-29${timeText(ms)}Z`;
  const base = whole < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30);
  return new Date(base + whole * DAY_MS + ms).toISOString();
}

/** Our reader's date in the same form: a date before 1900 in a 1900 workbook is a time of day. */
export function dateText(date: Date, date1904: boolean): string {
  if (!date1904 && date.getTime() < Date.UTC(1900, 0, 1)) {
    const ms = ((date.getTime() % DAY_MS) + DAY_MS) % DAY_MS;
    return timeText(ms);
  }
  return date.toISOString();
}

/** ISO text of a `t="d"` cell, read as UTC when it names no zone. */
function isoCellText(text: string): string | undefined {
  const trimmed = text.trim();
  const timeOnly = /^T?(\d\d):(\d\d)(?::(\d\d(?:\.\d+)?))?$/.exec(trimmed);
  if (timeOnly) {
    const [, h, m, sec] = timeOnly;
    return timeText(Math.round(((Number(h) * 60 + Number(m)) * 60 + Number(sec ?? 0)) * 1000));
  }
  const zoned = /(?:Z|[+-]\d\d:?\d\d)$/.test(trimmed) || !trimmed.includes('T') ? trimmed : `${trimmed}Z`;
  const time = Date.parse(/T/.test(zoned) ? zoned : `${zoned}T00:00:00Z`);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

interface ZipLike {
  FullPaths: string[];
  FileIndex: { content?: Uint8Array | number[] }[];
}

const textOf = (zip: ZipLike, name: string): string | undefined => {
  const index = zip.FullPaths.findIndex((path) => path.replace(/^Root Entry\//, '').replace(/^\//, '') === name);
  const content = index >= 0 ? zip.FileIndex[index]?.content : undefined;
  return content ? Buffer.from(content as Uint8Array).toString('utf8') : undefined;
};

/**
 * The `t="d"` cells of each sheet part (ISO text by A1 address), by relationship id; SheetJS
 * turns them into serials in local time and ignores date1904 for them, so they are read here.
 */
function isoDateCells(buffer: Buffer): Map<string, Map<string, string>> {
  const byRel = new Map<string, Map<string, string>>();
  const zip = XLSX.CFB.read(buffer, { type: 'buffer' }) as unknown as ZipLike;
  const rels = textOf(zip, 'xl/_rels/workbook.xml.rels') ?? '';
  for (const rel of rels.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
    const id = /\bId="([^"]*)"/.exec(rel[0])?.[1];
    const target = /\bTarget="([^"]*)"/.exec(rel[0])?.[1];
    if (!id || !target) continue;
    const part = target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join('xl', target));
    const xml = textOf(zip, part);
    if (!xml || !/\bt="d"/.test(xml)) continue;
    const cells = new Map<string, string>();
    for (const cell of xml.matchAll(/<((?:\w+:)?c)\b([^>]*\bt="d"[^>]*)>([\s\S]*?)<\/\1>/g)) {
      const ref = /\br="([A-Z]+\d+)"/.exec(cell[2])?.[1];
      const value = /<(?:\w+:)?v>([^<]*)<\/(?:\w+:)?v>/.exec(cell[3])?.[1];
      const iso = value === undefined ? undefined : isoCellText(value);
      if (ref && iso) cells.set(ref, iso);
    }
    byRel.set(id, cells);
  }
  return byRel;
}

function cellValue(cell: XLSX.CellObject, date1904: boolean): CorpusValue | undefined {
  switch (cell.t) {
    case 's':
      return typeof cell.v === 'string' && cell.v !== '' ? { kind: 'text', text: cell.v } : undefined;
    case 'b':
      return { kind: 'boolean', value: Boolean(cell.v) };
    case 'e':
      return { kind: 'error', text: cell.w ?? ERRORS[Number(cell.v)] ?? `#ERR${String(cell.v)}` };
    case 'n': {
      const value = Number(cell.v);
      if (typeof cell.z === 'string' && XLSX.SSF.is_date(cell.z)) {
        const iso = serialDateText(value, date1904);
        if (iso !== undefined) return { kind: 'date', iso };
      }
      return { kind: 'number', value };
    }
    default:
      return undefined;
  }
}

/** SheetJS's reading of a workbook, or the error it refused it with. */
export function sheetjsBook(path: string): CorpusBook {
  const buffer = readFileSync(path);
  let workbook: XLSX.WorkBook;
  let isoCells: Map<string, Map<string, string>>;
  try {
    workbook = XLSX.read(buffer, {
      type: 'buffer',
      cellDates: false,
      cellNF: true,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      sheetStubs: false,
    });
    isoCells = isoDateCells(buffer);
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
  const date1904 = Boolean(workbook.Workbook?.WBProps?.date1904);
  const sheets: CorpusSheet[] = [];
  workbook.SheetNames.forEach((name, index) => {
    const sheet = workbook.Sheets[name] as XLSX.WorkSheet & { '!type'?: string };
    if (!sheet || sheet['!type']) return;
    const relId = (workbook.Workbook?.Sheets?.[index] as { id?: string } | undefined)?.id;
    const iso = relId ? isoCells.get(relId) : undefined;
    const cells = new Map<string, CorpusValue>();
    for (const [address, cell] of Object.entries(sheet)) {
      if (address.startsWith('!')) continue;
      const isoText = iso?.get(address);
      const value = isoText ? ({ kind: 'date', iso: isoText } as const) : cellValue(cell as XLSX.CellObject, date1904);
      if (value) cells.set(address, value);
    }
    sheets.push({ name, cells });
  });
  return { sheets, date1904 };
}

export const valueText = (value: CorpusValue | undefined): string => {
  if (!value) return '(no cell)';
  switch (value.kind) {
    case 'text':
      return `text ${JSON.stringify(value.text)}`;
    case 'number':
      return `number ${value.value}`;
    case 'boolean':
      return `boolean ${value.value}`;
    case 'error':
      return `error ${value.text}`;
    case 'date':
      return `date ${value.iso}`;
  }
};

export const sameValue = (a: CorpusValue | undefined, b: CorpusValue | undefined): boolean => valueText(a) === valueText(b);
