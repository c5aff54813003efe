import { open, stat } from 'node:fs/promises';
import { ApiError } from '../errors';
import { MB, SHEET_LIMITS } from './limits';
import { columnNumber, SheetXmlScan, type MergeRange } from './sheet-xml-scan';
import { refusedBeforeZip } from './package-refusals';
import {
  contentTypes,
  partName,
  relationships,
  relationshipsPartOf,
  listedSheets,
  usesDate1904,
  type ListedSheet,
  type Relationship,
  type SheetPart,
} from './workbook-xml';
import { inflateEntry } from './zip-inflate';
import { damaged, readZipDirectory, type ZipEntry } from './zip-directory';

/**
 * Everything checked about a file before its sheets are read: its size, that it is a ZIP and
 * not an encrypted (OLE) file or another format, that its ZIP is plain and inflates within the
 * limits (every entry is inflated once, bounded and checked against its CRC, before the reader
 * inflates the parts it reads again), where its parts are (workbook-xml.ts: by the package's
 * relationships), and what the row reader does not tell: the tab order of the sheets and their
 * merged cells.
 */
export interface WorkbookPackage {
  /** Worksheets in tab order. */
  sheets: SheetPart[];
  /** Merged ranges by sheet part. */
  merges: Map<string, MergeRange[]>;
  /** The ZIP entries by part name in lower case (part names ignore case), for the reader to inflate again. */
  entries: Map<string, ZipEntry>;
  /** The shared strings and styles parts, when the workbook has them. */
  sharedStrings: string | undefined;
  styles: string | undefined;
  /** Dates count from 1904 (`<workbookPr date1904="1">`). */
  date1904: boolean;
}

/** The ZIP entry of a part, or undefined. */
export const entryOf = (pkg: Pick<WorkbookPackage, 'entries'>, part: string): ZipEntry | undefined => pkg.entries.get(part.toLowerCase());

const CONTENT_TYPES = '[content_types].xml';
const PACKAGE_RELS = '_rels/.rels';
const WORKBOOK_TYPE = /\.(sheet|template)\.main\+xml$|ms-excel\.(sheet|template)\.macroEnabled\.main\+xml$/i;
const CONVENTIONAL_WORKBOOK = 'xl/workbook.xml';

const notXlsx = (fileName: string, what: string): ApiError =>
  new ApiError(
    415,
    'unsupported-media-type',
    `${fileName} is not an .xlsx workbook (${what}): save it from Excel or LibreOffice as "Excel Workbook (.xlsx)" and upload it again.`,
  );

async function checkSize(path: string, fileName: string): Promise<number> {
  const { size } = await stat(path);
  if (size > SHEET_LIMITS.fileBytes) {
    throw new ApiError(413, 'too-large', `${fileName} is ${Math.ceil(size / MB)} MB, more than the 50 MB limit for a bulk-load workbook.`);
  }
  await refusedBeforeZip(path, size, fileName);
  return size;
}

function byPartName(entries: ZipEntry[], fileName: string): Map<string, ZipEntry> {
  const byName = new Map<string, ZipEntry>();
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const name = partName(entry.name).toLowerCase();
    if (byName.has(name)) throw damaged(fileName, `its part ${entry.name} appears twice`);
    byName.set(name, entry);
  }
  return byName;
}

/** The text of a small part (the package's maps), bounded like any part held whole. */
async function partText(path: string, entry: ZipEntry | undefined, fileName: string): Promise<string | undefined> {
  if (!entry) return undefined;
  checkHeldSize(entry, SHEET_LIMITS.otherHeldPartBytes, fileName);
  const chunks: Buffer[] = [];
  await inflateEntry(path, entry, fileName, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}

function checkHeldSize(entry: ZipEntry, limit: number, fileName: string): void {
  if (entry.uncompressedSize > limit) {
    throw new ApiError(
      413,
      'too-large',
      `${fileName} is too large to read: its part ${entry.name} inflates to ${Math.round(entry.uncompressedSize / MB)} MB, more than the ${limit / MB} MB this workstation reads.`,
    );
  }
}

/** What the file is when it has no workbook part: the refusal names it. */
function noWorkbook(byName: Map<string, ZipEntry>, fileName: string): ApiError {
  const has = (name: string): boolean => byName.has(name);
  const under = (folder: string): boolean => [...byName.keys()].some((name) => name.startsWith(folder));
  if (has('mimetype') || has('content.xml')) return notXlsx(fileName, 'it is an OpenDocument spreadsheet');
  if (has('xl/workbook.bin')) return notXlsx(fileName, 'it is a binary .xlsb workbook');
  if (under('word/')) return notXlsx(fileName, 'it is a Word document');
  if (under('ppt/')) return notXlsx(fileName, 'it is a PowerPoint presentation');
  if (under('xl/') || has(PACKAGE_RELS) || has(CONTENT_TYPES)) {
    return damaged(fileName, 'its workbook part is missing: the package names no workbook, or names one it does not hold');
  }
  return notXlsx(fileName, 'it is a ZIP archive, but no spreadsheet');
}

/** The workbook part: named by the package relationships, else by the content types, else by convention. */
function findWorkbook(packageRels: Relationship[], types: Map<string, string>, byName: Map<string, ZipEntry>): string | undefined {
  const named = packageRels.find((rel) => rel.kind === 'officeDocument' && byName.has(rel.target.toLowerCase()));
  if (named) return named.target;
  for (const [part, type] of types) if (WORKBOOK_TYPE.test(type) && byName.has(part)) return part;
  return byName.has(CONVENTIONAL_WORKBOOK) ? CONVENTIONAL_WORKBOOK : undefined;
}

/** A part the workbook relates to, else the first part of its content type (a package that lost its map). */
function relatedPart(rels: Relationship[], kind: string, types: Map<string, string>, byName: Map<string, ZipEntry>): string | undefined {
  const related = rels.find((rel) => rel.kind === kind && byName.has(rel.target.toLowerCase()));
  if (related) return related.target;
  const typeEnd = `.${kind}+xml`;
  for (const [part, type] of types) if (type.toLowerCase().endsWith(typeEnd.toLowerCase()) && byName.has(part)) return part;
  return undefined;
}

const WORKSHEET_TYPE = /\.worksheet\+xml$/i;

/**
 * The worksheets in tab order. A sheet whose relationship is missing (some generators leave out
 * `r:id`, or the workbook's relationships part) takes the next worksheet part no other sheet
 * names, in the order of their names (`sheet2.xml` before `sheet10.xml`), as forgiving readers
 * do; a sheet whose part is named but not in the file makes the file damaged.
 */
function worksheetsOf(
  listed: ListedSheet[],
  rels: Relationship[],
  types: Map<string, string>,
  byName: Map<string, ZipEntry>,
  fileName: string,
): SheetPart[] {
  const named = new Set(listed.flatMap((sheet) => (sheet.path ? [sheet.path.toLowerCase()] : [])));
  const spare = [
    ...rels.filter((rel) => rel.kind === 'worksheet').map((rel) => rel.target.toLowerCase()),
    ...[...types].filter(([, type]) => WORKSHEET_TYPE.test(type)).map(([part]) => part),
  ]
    .filter((part, index, all) => !named.has(part) && byName.has(part) && all.indexOf(part) === index)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const sheets: SheetPart[] = [];
  for (const sheet of listed) {
    if (sheet.other) continue;
    const path = sheet.path ?? spare.shift();
    if (path === undefined) continue;
    if (!byName.has(path.toLowerCase())) throw damaged(fileName, `its sheet '${sheet.name}' is missing from the file`);
    sheets.push({ name: sheet.name, path });
  }
  return sheets;
}

interface PartMap {
  workbook: string;
  workbookXml: string;
  sheets: SheetPart[];
  sharedStrings: string | undefined;
  styles: string | undefined;
}

async function mapParts(path: string, byName: Map<string, ZipEntry>, fileName: string): Promise<PartMap> {
  const types = contentTypes((await partText(path, byName.get(CONTENT_TYPES), fileName)) ?? '');
  const packageRels = relationships((await partText(path, byName.get(PACKAGE_RELS), fileName)) ?? '', '');
  const workbook = findWorkbook(packageRels, types, byName);
  if (!workbook) throw noWorkbook(byName, fileName);
  const workbookXml = (await partText(path, byName.get(workbook.toLowerCase()), fileName)) ?? '';
  const relsText = await partText(path, byName.get(relationshipsPartOf(workbook).toLowerCase()), fileName);
  const rels = relationships(relsText ?? '', workbook);
  const sheets = worksheetsOf(listedSheets(workbookXml, rels), rels, types, byName, fileName);
  return {
    workbook,
    workbookXml,
    sheets,
    sharedStrings: relatedPart(rels, 'sharedStrings', types, byName),
    styles: relatedPart(rels, 'styles', types, byName),
  };
}

function checkSizes(entries: Map<string, ZipEntry>, parts: PartMap, fileName: string): void {
  const sheets = new Set(parts.sheets.map((sheet) => sheet.path.toLowerCase()));
  for (const [name, entry] of entries) {
    if (sheets.has(name)) continue;
    checkHeldSize(
      entry,
      name === parts.sharedStrings?.toLowerCase() ? SHEET_LIMITS.sharedStringsBytes : SHEET_LIMITS.otherHeldPartBytes,
      fileName,
    );
  }
}

/** Inflates every entry once (bounded, CRC checked), scanning worksheets on the way. */
async function inflateAll(
  path: string,
  entries: Map<string, ZipEntry>,
  sheets: SheetPart[],
  fileName: string,
): Promise<Map<string, SheetXmlScan>> {
  const sheetNames = new Set(sheets.map((sheet) => sheet.path.toLowerCase()));
  const scans = new Map<string, SheetXmlScan>();
  for (const [name, entry] of entries) {
    if (sheetNames.has(name)) {
      const scan = new SheetXmlScan(SHEET_LIMITS.columns);
      await inflateEntry(path, entry, fileName, (chunk) => scan.push(chunk));
      scans.set(name, scan);
    } else {
      await inflateEntry(path, entry, fileName);
    }
  }
  return scans;
}

export async function inspectWorkbookFile(path: string, fileName: string): Promise<WorkbookPackage> {
  const size = await checkSize(path, fileName);
  const file = await open(path, 'r');
  let zipEntries: ZipEntry[];
  try {
    zipEntries = await readZipDirectory(file, size, fileName);
  } finally {
    await file.close();
  }
  const entries = byPartName(zipEntries, fileName);
  const parts = await mapParts(path, entries, fileName);
  checkSizes(entries, parts, fileName);
  const scans = await inflateAll(path, entries, parts.sheets, fileName);
  const merges = new Map<string, MergeRange[]>();
  for (const sheet of parts.sheets) {
    const scan = scans.get(sheet.path.toLowerCase());
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
  return {
    sheets: parts.sheets,
    merges,
    entries,
    sharedStrings: parts.sharedStrings,
    styles: parts.styles,
    date1904: usesDate1904(parts.workbookXml),
  };
}
