import { open } from 'node:fs/promises';
import { ApiError } from '../errors';

/**
 * What a file that is not a ZIP package is, so its refusal says what to do: an encrypted
 * workbook (Excel wraps a password-protected .xlsx in an OLE compound file), an old .xls (also
 * OLE), an empty file, or another kind of file (text, a web page, a PDF). Read before anything
 * else: the first bytes tell the kind, and an OLE file's directory names its streams in UTF-16.
 */
const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const EMPTY_ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
/** An OLE file's streams are named in its directory, in UTF-16 little-endian. */
const ENCRYPTED_STREAM = Buffer.from('EncryptedPackage', 'utf16le');
/** The stream of an .xls workbook (BIFF8 `Workbook`, BIFF5 `Book`), followed by the name's end. */
const XLS_STREAMS = [Buffer.from('Workbook\0', 'utf16le'), Buffer.from('Book\0', 'utf16le')];
/** Enough of an OLE file to find its directory in the files Excel writes (it is read whole up to this). */
const OLE_READ = 8 * 1024 * 1024;

const notXlsx = (
  fileName: string,
  what: string,
  todo = 'save it from Excel or LibreOffice as "Excel Workbook (.xlsx)" and upload it again',
): ApiError => new ApiError(415, 'unsupported-media-type', `${fileName} is not an .xlsx workbook (${what}): ${todo}.`);

async function readHead(path: string, length: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

function kindOfText(head: Buffer): string {
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'it is a PDF document';
  if (text.startsWith('<!doctype html') || text.startsWith('<html')) return 'it is a web page';
  if (text.startsWith('<?xml') || text.startsWith('<')) return 'it is an XML file, not a ZIP package';
  // eslint-disable-next-line no-control-regex -- text files have no control characters but tab and line ends
  if (!/[\x00-\x08\x0E-\x1F]/.test(head.toString('latin1'))) return 'it is a text file (CSV or similar)';
  return 'it is not a ZIP package';
}

/** Refuses, with the reason, a file that is no ZIP package; answers for a ZIP. */
export async function refusedBeforeZip(path: string, size: number, fileName: string): Promise<void> {
  if (size === 0) throw notXlsx(fileName, 'the file is empty');
  const head = await readHead(path, Math.min(size, 512));
  if (head.subarray(0, 8).equals(OLE_SIGNATURE)) {
    const whole = await readHead(path, Math.min(size, OLE_READ));
    if (whole.includes(ENCRYPTED_STREAM)) {
      throw new ApiError(
        400,
        'encrypted-workbook',
        `${fileName} is encrypted (password protected): open it in Excel, remove the password (File > Info > Protect Workbook), save it and upload it again.`,
      );
    }
    if (XLS_STREAMS.some((name) => whole.includes(name))) {
      throw notXlsx(fileName, 'it is an old .xls workbook', 'open it in Excel or LibreOffice and save it as "Excel Workbook (.xlsx)"');
    }
    throw new ApiError(
      400,
      'encrypted-workbook',
      `${fileName} is encrypted or an old .xls workbook: save it as an unprotected .xlsx and upload it again.`,
    );
  }
  if (head.subarray(0, 4).equals(EMPTY_ZIP_SIGNATURE)) throw notXlsx(fileName, 'it is an empty ZIP archive');
  if (!head.subarray(0, 4).equals(ZIP_SIGNATURE)) throw notXlsx(fileName, kindOfText(head));
}
