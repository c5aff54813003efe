import { open, stat } from 'node:fs/promises';
import { ApiError } from '../errors';
import { MB, SHEET_LIMITS } from './limits';
import { columnNumber, SheetXmlScan, type MergeRange } from './sheet-xml-scan';
import { sheetParts, type SheetPart } from './workbook-xml';
import { inflateEntry } from './zip-inflate';
import { damaged, readZipDirectory, type ZipEntry } from './zip-directory';

/**
 * Everything checked about a file before its sheets are read: its size, that it is a ZIP and
 * not an encrypted (OLE) file or another format, that its ZIP is plain and inflates within the
 * limits (every entry is inflated once, bounded, before the reader inflates the parts it reads
 * again), and what the row reader does not tell: the tab order of the sheets and their merged cells.
 */
export interface WorkbookPackage {
  /** Worksheets in tab order. */
  sheets: SheetPart[];
  /** Merged ranges by sheet part. */
  merges: Map<string, MergeRange[]>;
  /** The ZIP entries by name, placed and checked, for the reader to inflate again. */
  entries: Map<string, ZipEntry>;
  /** Dates count from 1904 (`<workbookPr date1904="1">`, as exceljs reads it). */
  date1904: boolean;
}

const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';
const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/;

const notXlsx = (fileName: string, what: string): ApiError =>
  new ApiError(
    415,
    'unsupported-media-type',
    `${fileName} is not an .xlsx workbook (${what}): save it from Excel or LibreOffice as "Excel Workbook (.xlsx)" and upload it again.`,
  );

async function checkSignature(path: string, fileName: string): Promise<number> {
  const { size } = await stat(path);
  if (size > SHEET_LIMITS.fileBytes) {
    throw new ApiError(413, 'too-large', `${fileName} is ${Math.ceil(size / MB)} MB, more than the 50 MB limit for a bulk-load workbook.`);
  }
  const file = await open(path, 'r');
  const head = Buffer.alloc(8);
  try {
    await file.read(head, 0, 8, 0);
  } finally {
    await file.close();
  }
  if (head.equals(OLE_SIGNATURE)) {
    throw new ApiError(
      400,
      'encrypted-workbook',
      `${fileName} is encrypted or an old .xls workbook: save it as an unprotected .xlsx and upload it again.`,
    );
  }
  if (!head.subarray(0, 4).equals(ZIP_SIGNATURE)) throw notXlsx(fileName, size === 0 ? 'the file is empty' : 'it is not a ZIP package');
  return size;
}

function checkParts(entries: ZipEntry[], fileName: string): void {
  const byName = new Map<string, ZipEntry>();
  for (const entry of entries) {
    if (byName.has(entry.name)) throw damaged(fileName, `its part ${entry.name} appears twice`);
    byName.set(entry.name, entry);
  }
  if (!byName.has(WORKBOOK) || !byName.has(WORKBOOK_RELS)) {
    if (byName.has('mimetype') || byName.has('content.xml')) throw notXlsx(fileName, 'it is an OpenDocument spreadsheet');
    if (byName.has('xl/workbook.bin')) throw notXlsx(fileName, 'it is a binary .xlsb workbook');
    throw notXlsx(fileName, 'it has no xl/workbook.xml');
  }
  for (const entry of entries) {
    const limit =
      entry.name === 'xl/sharedStrings.xml'
        ? SHEET_LIMITS.sharedStringsBytes
        : WORKSHEET.test(entry.name)
          ? Infinity
          : SHEET_LIMITS.otherHeldPartBytes;
    if (entry.uncompressedSize > limit) {
      throw new ApiError(
        413,
        'too-large',
        `${fileName} is too large to read: its part ${entry.name} inflates to ${Math.round(entry.uncompressedSize / MB)} MB, more than the ${limit / MB} MB this workstation reads.`,
      );
    }
  }
}

interface Inflated {
  scans: Map<string, SheetXmlScan>;
  /** The texts of the parts that list the sheets. */
  texts: Map<string, string>;
}

/** Inflates every entry once (bounded), scanning worksheets and keeping the sheet list on the way. */
async function inflateAll(path: string, entries: ZipEntry[], fileName: string): Promise<Inflated> {
  const inflated: Inflated = { scans: new Map(), texts: new Map() };
  for (const entry of entries) {
    if (WORKSHEET.test(entry.name)) {
      const scan = new SheetXmlScan(SHEET_LIMITS.columns);
      await inflateEntry(path, entry, fileName, (chunk) => scan.push(chunk));
      inflated.scans.set(entry.name, scan);
    } else if (entry.name === WORKBOOK || entry.name === WORKBOOK_RELS) {
      const chunks: Buffer[] = [];
      await inflateEntry(path, entry, fileName, (chunk) => chunks.push(chunk));
      inflated.texts.set(entry.name, Buffer.concat(chunks).toString('utf8'));
    } else {
      await inflateEntry(path, entry, fileName);
    }
  }
  return inflated;
}

export async function inspectWorkbookFile(path: string, fileName: string): Promise<WorkbookPackage> {
  const size = await checkSignature(path, fileName);
  const file = await open(path, 'r');
  let entries: ZipEntry[];
  try {
    entries = await readZipDirectory(file, size, fileName);
  } finally {
    await file.close();
  }
  checkParts(entries, fileName);
  const { scans, texts } = await inflateAll(path, entries, fileName);
  const sheets = sheetParts(texts.get(WORKBOOK) ?? '', texts.get(WORKBOOK_RELS) ?? '');
  const merges = new Map<string, MergeRange[]>();
  for (const sheet of sheets) {
    const scan = scans.get(sheet.path);
    if (scan?.tooWide) {
      throw new ApiError(
        413,
        'too-large',
        `Sheet '${sheet.name}' of ${fileName} has a cell in column ${scan.tooWide} (column ${columnNumber(scan.tooWide)}), beyond the limit of ${SHEET_LIMITS.columns.toLocaleString('en-US')} columns (XFD).`,
      );
    }
    if (scan && !scan.complete) throw damaged(fileName, `its sheet '${sheet.name}' is cut short`);
    if (scan) merges.set(sheet.path, scan.merges);
  }
  const date1904 = /<workbookPr\s[^>]*?\bdate1904\s*=\s*(["'])1\1/.test(texts.get(WORKBOOK) ?? '');
  return { sheets, merges, entries: new Map(entries.map((entry) => [entry.name, entry])), date1904 };
}
