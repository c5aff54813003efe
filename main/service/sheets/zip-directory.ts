import type { FileHandle } from 'node:fs/promises';
import { ApiError } from '../errors';
import { MB, SHEET_LIMITS } from './limits';

/**
 * The ZIP central directory of an .xlsx, read from the end of the file without inflating
 * anything, so the declared sizes can be judged before any byte is decompressed. The layout is
 * also checked to be plain: each local entry exactly where the directory says, back to back. A
 * streaming reader (exceljs's, which the bulk load used) walks the local headers from the start
 * of the file, so entries hidden between them, or sizes that disagree with the directory, would
 * escape these checks; the row reader reads entries where the directory places them.
 */
export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  /** The CRC-32 of the inflated data, from the directory. */
  crc32: number;
  localOffset: number;
  /** Where the compressed bytes start, from the local header. */
  dataOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const DESCRIPTOR_SIGNATURE = 0x08074b50;
const EOCD_SIZE = 22;
const ZIP64_MARK = 0xffffffff;

export const damaged = (fileName: string, why: string): ApiError =>
  new ApiError(
    400,
    'bad-workbook',
    `${fileName} is not a readable .xlsx workbook (${why}): save it again from Excel or LibreOffice and upload it again.`,
  );

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

interface EndRecord {
  entries: number;
  directorySize: number;
  directoryOffset: number;
}

async function endRecord(file: FileHandle, size: number, fileName: string): Promise<EndRecord> {
  const tailLength = Math.min(size, EOCD_SIZE + 0xffff);
  const tail = await readAt(file, size - tailLength, tailLength);
  for (let at = tail.length - EOCD_SIZE; at >= 0; at -= 1) {
    if (tail.readUInt32LE(at) !== EOCD_SIGNATURE) continue;
    const entries = tail.readUInt16LE(at + 10);
    const directorySize = tail.readUInt32LE(at + 12);
    const directoryOffset = tail.readUInt32LE(at + 16);
    if (entries === 0xffff || directorySize === ZIP64_MARK || directoryOffset === ZIP64_MARK) {
      throw damaged(fileName, 'it uses ZIP64, which no workbook within the 50 MB limit needs');
    }
    if (directoryOffset + directorySize > size - tailLength + at) throw damaged(fileName, 'its ZIP directory points outside the file');
    return { entries, directorySize, directoryOffset };
  }
  throw damaged(fileName, 'its ZIP directory is missing or cut short');
}

function parseDirectory(directory: Buffer, count: number, fileName: string): Omit<ZipEntry, 'dataOffset'>[] {
  if (count > SHEET_LIMITS.zipEntries) {
    throw new ApiError(
      413,
      'too-large',
      `${fileName} holds ${count} ZIP entries; a workbook this workstation reads has at most ${SHEET_LIMITS.zipEntries}.`,
    );
  }
  const entries: Omit<ZipEntry, 'dataOffset'>[] = [];
  let at = 0;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL_SIGNATURE)
      throw damaged(fileName, 'its ZIP directory is damaged');
    const nameLength = directory.readUInt16LE(at + 28);
    const skip = nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    entries.push({
      flags: directory.readUInt16LE(at + 8),
      method: directory.readUInt16LE(at + 10),
      crc32: directory.readUInt32LE(at + 16),
      compressedSize: directory.readUInt32LE(at + 20),
      uncompressedSize: directory.readUInt32LE(at + 24),
      localOffset: directory.readUInt32LE(at + 42),
      name: directory.toString('utf8', at + 46, at + 46 + nameLength),
    });
    at += 46 + skip;
  }
  return entries;
}

function checkEntry(entry: Omit<ZipEntry, 'dataOffset'>, fileName: string): void {
  if (entry.flags & 0x1) {
    throw new ApiError(
      400,
      'encrypted-workbook',
      `${fileName} is encrypted (password protected): save it as an unprotected .xlsx and upload it again.`,
    );
  }
  if (entry.compressedSize === ZIP64_MARK || entry.uncompressedSize === ZIP64_MARK || entry.localOffset === ZIP64_MARK) {
    throw damaged(fileName, 'it uses ZIP64, which no workbook within the 50 MB limit needs');
  }
  if (entry.method !== 0 && entry.method !== 8) throw damaged(fileName, `entry ${entry.name} uses an unknown compression method`);
}

/** Refuses the package before anything is inflated when its declared sizes add up past the limit. */
function checkDeclaredSize(entries: Omit<ZipEntry, 'dataOffset'>[], fileName: string): void {
  const total = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (total > SHEET_LIMITS.inflatedBytes) {
    throw new ApiError(
      413,
      'too-large',
      `${fileName} is unsafe: it inflates to ${Math.round(total / MB)} MB, more than 20x the 50 MB upload limit (${SHEET_LIMITS.inflatedBytes / MB} MB).`,
    );
  }
}

/** Places each entry's data by its local header and checks the entries tile the file. */
async function locate(file: FileHandle, entries: Omit<ZipEntry, 'dataOffset'>[], end: EndRecord, fileName: string): Promise<ZipEntry[]> {
  const sorted = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  const located: ZipEntry[] = [];
  let expected = 0;
  for (const entry of sorted) {
    if (entry.localOffset !== expected) throw damaged(fileName, 'its ZIP entries are not where its directory says');
    const header = await readAt(file, entry.localOffset, 30);
    if (header.length < 30 || header.readUInt32LE(0) !== LOCAL_SIGNATURE) throw damaged(fileName, `entry ${entry.name} is damaged`);
    const sizesKnown = (entry.flags & 0x8) === 0;
    const agrees =
      header.readUInt16LE(8) === entry.method &&
      (!sizesKnown || (header.readUInt32LE(18) === entry.compressedSize && header.readUInt32LE(22) === entry.uncompressedSize));
    if (!agrees) throw damaged(fileName, `entry ${entry.name} disagrees with the ZIP directory`);
    const dataOffset = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    let next = dataOffset + entry.compressedSize;
    if (entry.flags & 0x8) {
      const descriptor = await readAt(file, next, 4);
      next += descriptor.length === 4 && descriptor.readUInt32LE(0) === DESCRIPTOR_SIGNATURE ? 16 : 12;
    }
    located.push({ ...entry, dataOffset });
    expected = next;
  }
  if (expected !== end.directoryOffset) throw damaged(fileName, 'its ZIP entries and directory disagree');
  return located;
}

/** The entries of the ZIP at `file`, in file order, checked as described above. */
export async function readZipDirectory(file: FileHandle, size: number, fileName: string): Promise<ZipEntry[]> {
  const end = await endRecord(file, size, fileName);
  const directory = await readAt(file, end.directoryOffset, end.directorySize);
  const entries = parseDirectory(directory, end.entries, fileName);
  entries.forEach((entry) => checkEntry(entry, fileName));
  checkDeclaredSize(entries, fileName);
  return locate(file, entries, end, fileName);
}
