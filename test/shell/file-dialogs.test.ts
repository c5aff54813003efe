import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeResponse } from '../../preload/bridge-types';
import type { IpcEventLike, IpcMainLike } from '../../main/shell/api-ipc';
import { OPEN_FILE_CHANNEL, registerFileDialogs, SAVE_FILE_CHANNEL, type DialogLike } from '../../main/shell/file-dialogs';
import { isAppPage } from '../../main/shell/window-security';
import type { ApiRequest } from '../../main/service/api-types';
import type { Principal } from '../../main/service/auth/principal';
import type { UploadAnswer } from '../../main/service/contract/resource-api';
import type { WorkbookAnswer } from '../../main/service/contract/workbook-api';
import { openTestService, type TestService } from '../service/helpers';

type Listener = (event: IpcEventLike, ...args: unknown[]) => unknown;

/** ipcMain as the handlers see it: a map of channel to listener, nothing of Electron. */
class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, Listener>();
  handle(channel: string, listener: Listener): void {
    this.handlers.set(channel, listener);
  }
  async invoke<T>(channel: string, senderUrl: string | null, ...args: unknown[]): Promise<T> {
    const listener = this.handlers.get(channel);
    if (!listener) throw new Error(`no ${channel} handler registered`);
    return (await listener({ senderFrame: senderUrl === null ? null : { url: senderUrl } }, ...args)) as T;
  }
}

/** Electron's dialog as the handlers use it: answers what the test chose, and remembers what it was shown. */
class FakeDialog implements DialogLike {
  openAnswer: { canceled: boolean; filePaths: string[] } = { canceled: true, filePaths: [] };
  saveAnswer: { canceled: boolean; filePath?: string } = { canceled: true };
  readonly shown: { kind: 'open' | 'save'; options: unknown }[] = [];
  showOpenDialog(options: Parameters<DialogLike['showOpenDialog']>[0]) {
    this.shown.push({ kind: 'open', options });
    return Promise.resolve(this.openAnswer);
  }
  showSaveDialog(options: Parameters<DialogLike['showSaveDialog']>[0]) {
    this.shown.push({ kind: 'save', options });
    return Promise.resolve(this.saveAnswer);
  }
}

const APP_PAGE = 'file:///app/dist/renderer/index.html';
const FIXTURE = join(__dirname, '..', 'fixtures', 'line-relation-exceljs.xlsx');
const XLSX_FILTER = { name: 'Excel workbook', extensions: ['xlsx'] };
const text = (body: string | Uint8Array): string => (typeof body === 'string' ? body : new TextDecoder().decode(body));

let t: TestService;
let ipc: FakeIpcMain;
let dialog: FakeDialog;
let principal: Principal;
let folder: string;
const seen: ApiRequest[] = [];

beforeAll(async () => {
  t = await openTestService();
  folder = mkdtempSync(join(tmpdir(), 'workstation-dialogs-'));
  ipc = new FakeIpcMain();
  dialog = new FakeDialog();
  const admin = t.service.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
  principal = { pkid: admin.pkid, username: 'admin', role: 'admin', hierarchyPkid: admin.hierarchyPkid };
  const handle = (request: ApiRequest) => {
    seen.push(request);
    return t.service.handleAs(principal, request);
  };
  registerFileDialogs(ipc, dialog, handle, (url) => isAppPage(APP_PAGE, url));
});
afterAll(() => t.close());

const open = (hierarchy: unknown, sender: string | null = APP_PAGE) =>
  ipc.invoke<BridgeResponse | null>(OPEN_FILE_CHANNEL, sender, hierarchy);

describe('Open .xlsx through the dialog in main', () => {
  it('shows an .xlsx open dialog, uploads the chosen file itself and answers the upload', async () => {
    dialog.openAnswer = { canceled: false, filePaths: [FIXTURE] };
    const answer = await open('sys');
    expect(dialog.shown.at(-1)).toEqual({
      kind: 'open',
      options: expect.objectContaining({ filters: [XLSX_FILTER], properties: ['openFile'] }),
    });
    expect(answer?.status).toBe(200);
    const uploaded = JSON.parse(text(answer?.body ?? '')) as UploadAnswer;
    expect(uploaded.uploadedfiles.map((file) => file.name)).toEqual(['line-relation-exceljs.xlsx']);
    // The service holds the file's very bytes, uploaded as the page would: multipart, at the node.
    const stored = t.service.store.uploads.get(uploaded.uploadedfiles[0].id);
    expect(stored?.sha256).toBe(createHash('sha256').update(readFileSync(FIXTURE)).digest('hex'));
    expect(seen.at(-1)?.url).toBe('/api/uploadfiles/?hierarchy=sys');
  });

  it('stages what it uploaded: the page sends only the stored name on', async () => {
    dialog.openAnswer = { canceled: false, filePaths: [FIXTURE] };
    const answer = await open('sys');
    const [file] = (JSON.parse(text(answer?.body ?? '')) as UploadAnswer).uploadedfiles;
    const staged = await t.service.handleAs(principal, {
      method: 'POST',
      url: '/workstation/workbooks/',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'upload', file: file.name, hierarchy: 'sys' }),
    });
    expect(staged.status).toBe(202);
    const { workbook } = JSON.parse(text(staged.body)) as WorkbookAnswer;
    expect(workbook.name).toBe('line-relation-exceljs.xlsx');
    // Staging goes on after its answer: it ends before the store closes.
    await t.service.workbooks.settled(workbook.id);
  });

  it('answers null when the user cancels, and asks the service nothing', async () => {
    const calls = seen.length;
    dialog.openAnswer = { canceled: true, filePaths: [] };
    expect(await open('sys')).toBeNull();
    expect(seen.length).toBe(calls);
  });

  it('refuses another page, and a request without a hierarchy, before showing any dialog', async () => {
    const shown = dialog.shown.length;
    dialog.openAnswer = { canceled: false, filePaths: [FIXTURE] };
    for (const sender of ['https://evil.example/', null]) {
      const answer = await open('sys', sender);
      expect(answer?.status).toBe(403);
      expect(JSON.parse(text(answer?.body ?? ''))).toMatchObject({ success: false, code: 'permission-denied' });
    }
    for (const hierarchy of [undefined, '', 42, { path: '/etc/passwd' }]) {
      const answer = await open(hierarchy);
      expect(answer?.status).toBe(400);
    }
    expect(dialog.shown.length).toBe(shown);
  });

  it("passes the service's fault through as data (a node that does not exist)", async () => {
    dialog.openAnswer = { canceled: false, filePaths: [FIXTURE] };
    const answer = await open('sys.nowhere');
    expect(answer?.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(text(answer?.body ?? ''))).toMatchObject({ success: false, http_code: answer?.status });
  });

  it('refuses a file over the upload limit without reading it, and one that is gone', async () => {
    const big = join(folder, 'big.xlsx');
    writeFileSync(big, '');
    truncateSync(big, 51 * 1024 * 1024);
    const calls = seen.length;
    dialog.openAnswer = { canceled: false, filePaths: [big] };
    const tooLarge = await open('sys');
    expect(tooLarge?.status).toBe(413);
    expect(JSON.parse(text(tooLarge?.body ?? ''))).toMatchObject({ success: false, http_code: 413, code: 'too-large' });
    dialog.openAnswer = { canceled: false, filePaths: [join(folder, 'missing.xlsx')] };
    expect((await open('sys'))?.status).toBe(404);
    expect(seen.length).toBe(calls);
  });
});

describe('Save through the dialog in main', () => {
  const save = (file: unknown, sender: string | null = APP_PAGE) => ipc.invoke<boolean>(SAVE_FILE_CHANNEL, sender, file);

  it("offers the page's name as a bare file name and writes the bytes where the user chose", async () => {
    const target = join(folder, 'chosen.xlsx');
    dialog.saveAnswer = { canceled: false, filePath: target };
    const bytes = new Uint8Array([80, 75, 3, 4, 1, 2]);
    expect(await save({ fileName: '../../etc/lines.xlsx', bytes })).toBe(true);
    expect(dialog.shown.at(-1)).toEqual({
      kind: 'save',
      options: expect.objectContaining({ defaultPath: 'lines.xlsx', filters: [XLSX_FILTER] }),
    });
    expect([...readFileSync(target)]).toEqual([...bytes]);
    dialog.saveAnswer = { canceled: false, filePath: join(folder, 'instance.json') };
    expect(await save({ fileName: 'instance.json', bytes: '{"a":1}' })).toBe(true);
    expect(readFileSync(join(folder, 'instance.json'), 'utf8')).toBe('{"a":1}');
  });

  it('writes nothing when cancelled, for another page, or for a malformed request', async () => {
    const target = join(folder, 'never.xlsx');
    dialog.saveAnswer = { canceled: true, filePath: target };
    expect(await save({ fileName: 'never.xlsx', bytes: new Uint8Array([1]) })).toBe(false);
    dialog.saveAnswer = { canceled: false, filePath: target };
    const shown = dialog.shown.length;
    expect(await save({ fileName: 'never.xlsx', bytes: new Uint8Array([1]) }, 'https://evil.example/')).toBe(false);
    for (const malformed of [
      null,
      'never.xlsx',
      { fileName: 'never.xlsx' },
      { fileName: 3, bytes: 'x' },
      { fileName: 'a', bytes: [1, 2] },
    ]) {
      expect(await save(malformed)).toBe(false);
    }
    expect(dialog.shown.length).toBe(shown);
    expect(existsSync(target)).toBe(false);
  });
});
