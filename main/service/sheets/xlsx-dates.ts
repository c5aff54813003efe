/**
 * When a number is a date: its format shows a date or a time, by the number format grammar
 * (ECMA-376 part 1, 18.8.31), case-insensitive as Excel reads it (LibreOffice writes `YYYY-MM-DD`).
 * Quoted literals, escaped and padding characters, `General` and bracketed conditions, colours and
 * locales (`[Red]`, `[$-409]`) say nothing; an elapsed time (`[h]`, `[mm]`, `[ss]`), AM/PM or
 * A/P, or any of the letters y m d h s (and e, g, b1, b2 of the other calendars) says date. In a
 * number part (after a `0`, `#`, `?` or `.`), `E+` is an exponent, not an era.
 */
const cache = new Map<string, boolean>();
const ELAPSED = /^\[(h+|m+|s+)\]/i;
const DATE_LETTER = /[ymdhsge]/i;
const NUMBER_PART = '0#?.,E+-%';

function scanForDate(format: string): boolean {
  let at = 0;
  while (at < format.length) {
    const char = format[at];
    if (char === '"') {
      const close = format.indexOf('"', at + 1);
      at = close < 0 ? format.length : close + 1;
    } else if (char === '\\' || char === '_' || char === '*') at += 2;
    else if (char === '[') {
      // An elapsed-time token is short (`[hhh]`): a bounded slice keeps a hostile format linear.
      if (ELAPSED.test(format.slice(at, at + 16))) return true;
      const close = format.indexOf(']', at);
      at = close < 0 ? format.length : close + 1;
    } else if (format.slice(at, at + 7).toLowerCase() === 'general') at += 7;
    else if (/^(AM\/PM|A\/P)/i.test(format.slice(at, at + 5))) return true;
    else if (char === '0' || char === '#' || char === '?' || char === '.') {
      at += 1;
      while (at < format.length && NUMBER_PART.includes(format[at].toUpperCase())) at += 1;
    } else if ((char === 'b' || char === 'B') && (format[at + 1] === '1' || format[at + 1] === '2')) return true;
    else if (DATE_LETTER.test(char)) return true;
    else at += 1;
  }
  return false;
}

/** Excel's longest format code is 255 characters; a longer one is read no further than this. */
const LONGEST_FORMAT = 1024;

export function isDateFormat(numFmt: string | undefined): boolean {
  if (!numFmt) return false;
  let known = cache.get(numFmt);
  if (known === undefined) {
    known = scanForDate(numFmt.slice(0, LONGEST_FORMAT));
    if (cache.size < 10_000) cache.set(numFmt, known);
  }
  return known;
}

/**
 * Serials a date format shows as a date: from day zero to 9999-12-31. Excel shows `####` for the
 * others (a negative number, a serial past the year 9999): they stay numbers.
 */
const LAST_SERIAL = 2_958_465;
export const isDateSerial = (serial: number, date1904: boolean): boolean =>
  serial >= 0 && serial <= LAST_SERIAL - (date1904 ? 1462 : 0) + 1;

const DAY_MS = 24 * 3600 * 1000;
/** Serial day of 1970-01-01 in the 1900 system, and the 1904 system's offset from it. */
const UNIX_EPOCH_SERIAL = 25569;
const OFFSET_1904 = 1462;

/**
 * Excel's 1900 system counts a 29 February 1900 that never was (serial 60, kept from Lotus 1-2-3):
 * serials before it are a day later than a plain count from 1899-12-30 makes them (serial 1 is
 * 1900-01-01), and 60 itself has no day of its own (read as the 28th, the day it follows).
 */
const PHANTOM_LEAP_DAY = 60;

export function serialToDate(serial: number, date1904: boolean): Date {
  const days = !date1904 && serial < PHANTOM_LEAP_DAY ? serial + 1 : serial;
  return new Date(Math.round((days - UNIX_EPOCH_SERIAL + (date1904 ? OFFSET_1904 : 0)) * DAY_MS));
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const ISO_TIME = /^T?(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?$/;

/**
 * A `t="d"` cell's value (ISO 8601, 18.17.4.1). Cells have no time zone: a date and time is the
 * wall-clock time the sheet shows, kept as UTC like every other date the reader gives (a zone,
 * when a writer adds one, is dropped, not converted). A time alone is a time on 1899-12-30,
 * Excel's day zero. Undefined for text that is no date.
 */
export function isoDate(text: string): Date | undefined {
  const time = ISO_TIME.exec(text);
  if (time) return utc(1899, 12, 30, time[1], time[2], time[3], time[4]);
  const match = ISO_DATE.exec(text);
  if (!match) return undefined;
  const [, year, month, day] = match;
  return utc(Number(year), Number(month), Number(day), match[4], match[5], match[6], match[7]);
}

function utc(year: number, month: number, day: number, hours = '0', minutes = '0', seconds = '0', fraction = ''): Date | undefined {
  const ms = fraction === '' ? 0 : Math.round(Number(`0.${fraction}`) * 1000);
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(Number(hours), Number(minutes), Number(seconds), ms);
  // 2023-02-30 rolls over to March: a day that does not exist is no date.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  if (Number(hours) > 24 || Number(minutes) > 59 || Number(seconds) > 60) return undefined;
  return date;
}
