/**
 * What a bulk-load workbook may be (decisions.md, "Bulk load sheets"), and the few extra bounds
 * that keep one hostile file from holding the process: every limit is checked before the work
 * it protects, and crossing one is a 413 that names it.
 */
export const SHEET_LIMITS = {
  /** The upload limit; a stored file larger than this was not uploaded through the API. */
  fileBytes: 50 * 1024 * 1024,
  /** A zip that inflates past 20x the upload limit is refused as unsafe. */
  inflatedBytes: 20 * 50 * 1024 * 1024,
  dataRows: 1_000_000,
  /** Excel's last column, XFD. */
  columns: 16_384,
  /**
   * Parts the reader holds in memory whole. Shared strings of a million-row sheet are about
   * 100 MB; a gigabyte of them would exhaust the heap long before the 20x limit is reached.
   */
  sharedStringsBytes: 256 * 1024 * 1024,
  otherHeldPartBytes: 32 * 1024 * 1024,
  /** Entries in the ZIP directory: a workbook has tens; millions would be a denial of service. */
  zipEntries: 10_000,
  /** Issues listed in a validation answer; the summary still counts every one. */
  listedIssues: 10_000,
  /** Highest array index a column may name (`lines.999.pattern`). */
  arrayIndex: 999,
} as const;

export const MB = 1024 * 1024;
