import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { BridgeResponse, OpenFileChannel, SaveFileChannel, SaveFileRequest } from '../../preload/bridge-types';
import type { ApiRequest, ApiResponse } from '../service/api-types';
import type { Fault } from '../service/contract/fault';
import { MAX_UPLOAD_BYTES } from '../service/request-screen';
import type { IpcMainLike } from './api-ipc';

/**
 * "Open .xlsx" and "Save" in the desktop shell: the native dialogs run here, in main, and the
 * page never names a path. An opened file is read here and uploaded to the service through the
 * same `handle()` as every API call; a saved file's bytes come from the page, its path from the
 * user's choice in the dialog.
 */
export const OPEN_FILE_CHANNEL: OpenFileChannel = 'file:open-workbook';
export const SAVE_FILE_CHANNEL: SaveFileChannel = 'file:save';

interface FileFilter {
  name: string;
  extensions: string[];
}

/** The part of Electron's `dialog` these handlers use (the shell binds it to the window). */
export interface DialogLike {
  showOpenDialog(options: {
    title: string;
    filters: FileFilter[];
    properties: 'openFile'[];
  }): Promise<{ canceled: boolean; filePaths: string[] }>;
  showSaveDialog(options: { title: string; defaultPath: string; filters: FileFilter[] }): Promise<{ canceled: boolean; filePath?: string }>;
}

const XLSX_FILTER: FileFilter = { name: 'Excel workbook', extensions: ['xlsx'] };
const BOUNDARY = 'workstation-dialog-upload';
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

const faultAnswer = (status: number, code: string, message: string): BridgeResponse => ({
  status,
  headers: JSON_HEADERS,
  body: JSON.stringify({ success: false, http_code: status, code, message } satisfies Fault),
});

const refused = (): BridgeResponse =>
  faultAnswer(403, 'permission-denied', 'Permission Denied: the request did not come from the workstation window.');

/** The one-part form `POST /api/uploadfiles/` takes: the file in a part named `uploadedfile`. */
function multipartOf(fileName: string, bytes: Uint8Array): Uint8Array {
  const safeName = fileName.replace(/["\r\n]/g, '_');
  const head =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="uploadedfile"; filename="${safeName}"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  return Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

/** What the dialog's file becomes: the upload request, or the fault that stops it before the service. */
async function uploadRequestFor(path: string, hierarchy: string): Promise<ApiRequest | BridgeResponse> {
  const facts = await stat(path).catch(() => undefined);
  if (!facts?.isFile()) return faultAnswer(404, 'not-found', `${basename(path)} could not be read.`);
  // Refused before reading it whole into memory: the service would refuse it anyway.
  if (facts.size > MAX_UPLOAD_BYTES)
    return faultAnswer(413, 'too-large', `The request body is larger than the ${MAX_UPLOAD_BYTES / 1024 / 1024} MB limit.`);
  return {
    method: 'POST',
    url: `/api/uploadfiles/?hierarchy=${encodeURIComponent(hierarchy)}`,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: multipartOf(basename(path), await readFile(path)),
  };
}

/** Shows the open dialog, then uploads the chosen file: the upload's answer, or null when cancelled. */
async function openAndUpload(
  dialogs: DialogLike,
  handle: (request: ApiRequest) => Promise<ApiResponse>,
  hierarchy: string,
): Promise<BridgeResponse | null> {
  const choice = await dialogs.showOpenDialog({ title: 'Open a workbook', filters: [XLSX_FILTER], properties: ['openFile'] });
  const path = choice.filePaths[0];
  if (choice.canceled || path === undefined) return null;
  const request = await uploadRequestFor(path, hierarchy);
  if (!('method' in request)) return request;
  const answer = await handle(request);
  return { status: answer.status, headers: answer.headers, body: answer.body };
}

function asSaveRequest(value: unknown): SaveFileRequest | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { fileName, bytes } = value as Record<string, unknown>;
  if (typeof fileName !== 'string' || !(typeof bytes === 'string' || bytes instanceof Uint8Array)) return undefined;
  return { fileName, bytes };
}

/** The page's suggested name, as a bare file name: the folder is the user's to choose. */
function suggestedName(fileName: string): string {
  const printable = [...fileName].filter((c) => c.charCodeAt(0) >= 32).join('');
  const name = basename(printable.replace(/\\/g, '/'))
    .replace(/[<>:"|?*]/g, '_')
    .trim();
  return name === '' || name === '.' || name === '..' ? 'download' : name.slice(0, 200);
}

async function saveWithDialog(dialogs: DialogLike, file: SaveFileRequest): Promise<boolean> {
  const defaultPath = suggestedName(file.fileName);
  const extension = extname(defaultPath).slice(1).toLowerCase();
  const filters =
    extension === 'xlsx' ? [XLSX_FILTER] : extension ? [{ name: `${extension.toUpperCase()} file`, extensions: [extension] }] : [];
  const choice = await dialogs.showSaveDialog({ title: 'Save', defaultPath, filters });
  if (choice.canceled || !choice.filePath) return false;
  await writeFile(choice.filePath, file.bytes);
  return true;
}

/**
 * Registers the two dialog handlers. Like `api:request`, each answers only the app's own page;
 * the open handler answers faults as data, as `request` does, and never throws at the page.
 */
export function registerFileDialogs(
  ipc: IpcMainLike,
  dialogs: DialogLike,
  handle: (request: ApiRequest) => Promise<ApiResponse>,
  isAppPage: (url: string) => boolean,
): void {
  ipc.handle(OPEN_FILE_CHANNEL, async (event, hierarchy) => {
    if (!isAppPage(event.senderFrame?.url ?? '')) return refused();
    if (typeof hierarchy !== 'string' || hierarchy === '')
      return faultAnswer(400, 'bad-request', 'Opening a file needs the hierarchy to upload it at.');
    try {
      return await openAndUpload(dialogs, handle, hierarchy);
    } catch {
      return faultAnswer(500, 'internal-error', 'The workstation could not open the file.');
    }
  });
  ipc.handle(SAVE_FILE_CHANNEL, async (event, raw) => {
    const file = asSaveRequest(raw);
    if (!isAppPage(event.senderFrame?.url ?? '') || !file) return false;
    return saveWithDialog(dialogs, file);
  });
}
