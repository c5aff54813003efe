/**
 * When a number is a date, by exceljs's rule (kept so workbooks read as they always have): its
 * format, once bracketed parts (`[Red]`, `[$-409]`) and quoted literals are removed, still has a
 * y, m, d, h, s, M or b. Dates are Excel serial days, from 1900 or, in a 1904 workbook, 1904.
 */
const cache = new Map<string, boolean>();

export function isDateFormat(numFmt: string | undefined): boolean {
  if (!numFmt) return false;
  let known = cache.get(numFmt);
  if (known === undefined) {
    const bare = numFmt.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, '');
    known = /[ymdhMsb]/.test(bare);
    if (cache.size < 10_000) cache.set(numFmt, known);
  }
  return known;
}

const DAY_MS = 24 * 3600 * 1000;
/** Serial day of 1970-01-01 in the 1900 system, and the 1904 system's offset from it. */
const UNIX_EPOCH_SERIAL = 25569;
const OFFSET_1904 = 1462;

export function serialToDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - UNIX_EPOCH_SERIAL + (date1904 ? OFFSET_1904 : 0)) * DAY_MS));
}
