import { describe, expect, it, vi } from 'vitest';
import type { BridgeResponse, SaveFileRequest } from '../../preload/bridge-types';
import { ApiClient } from '../../renderer/src/api/api-client';
import { saveFile, setFileSaver } from '../../renderer/src/api/downloads';
import { picksFilesItself } from '../../renderer/src/api/upload-file';
import { createViewerStore } from '../../renderer/src/store/viewer-store';
import { createWorkbooksStore } from '../../renderer/src/store/workbooks-store';
import { createIpcTransport } from '../../renderer/src/transport/ipc-transport';
import type { BridgeLike } from '../../renderer/src/transport/transport';
import { FakeTransport } from './fake-transport';

const LIST = '/workstation/workbooks/';
const json = (status: number, body: unknown): BridgeResponse => ({
  status,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** The desktop shell's bridge over a fake service: `request` answers as the fake does, the dialog as the test says. */
function shellBridge(service: FakeTransport, dialogAnswer: BridgeResponse | null): BridgeLike & { opened: string[] } {
  const opened: string[] = [];
  return {
    opened,
    request: (request) => service.request(request.method, request.url, { body: request.body }),
    onEvent: () => () => undefined,
    openWorkbookFile: (hierarchy) => {
      opened.push(hierarchy);
      return Promise.resolve(dialogAnswer);
    },
    saveFile: () => Promise.resolve(true),
  };
}

describe("files through the desktop shell's dialogs", () => {
  it('opens a workbook with the dialog in main: stages the name main uploaded the file under', async () => {
    const service = new FakeTransport('local')
      .on('POST', LIST, () => ({ status: 202, body: { success: true, workbook: { id: 'w1', name: 'lines (2).xlsx' } } }))
      .on('GET', LIST, { body: { workbooks: [] } });
    const bridge = shellBridge(service, json(200, { uploadedfiles: [{ name: 'lines (2).xlsx', id: 'u9' }] }));
    const client = new ApiClient(createIpcTransport(bridge));
    expect(picksFilesItself(client)).toBe(true);
    const opened = await createWorkbooksStore(client).getState().pickFile('sys.hcs.Telco.Acme.Paris');
    expect(opened?.id).toBe('w1');
    expect(bridge.opened).toEqual(['sys.hcs.Telco.Acme.Paris']);
    // The page sent no file and no path: main uploaded it; the page only stages it by name.
    expect(service.calls[0]).toMatchObject({
      method: 'POST',
      url: LIST,
      body: { from: 'upload', file: 'lines (2).xlsx', hierarchy: 'sys.hcs.Telco.Acme.Paris' },
    });
    expect(service.calls.some((call) => call.url.startsWith('/api/uploadfiles/'))).toBe(false);
  });

  it('does nothing when the user cancels the dialog, and shows a refused upload as a fault', async () => {
    const service = new FakeTransport('local').on('GET', LIST, { body: { workbooks: [] } });
    const cancelled = createWorkbooksStore(new ApiClient(createIpcTransport(shellBridge(service, null))));
    expect(await cancelled.getState().pickFile('sys')).toBeUndefined();
    expect(service.calls.filter((call) => call.method === 'POST')).toEqual([]);
    expect(cancelled.getState().fault).toBeUndefined();

    const tooLarge = json(413, {
      success: false,
      http_code: 413,
      code: 'too-large',
      message: 'The request body is larger than the 50 MB limit.',
    });
    const refused = createWorkbooksStore(new ApiClient(createIpcTransport(shellBridge(service, tooLarge))));
    expect(await refused.getState().pickFile('sys')).toBeUndefined();
    expect(refused.getState().fault).toMatchObject({ status: 413, code: 'too-large' });
  });

  it('views a file picked in main: the viewer opens once the upload is there, never after a cancel', async () => {
    const service = new FakeTransport('local').on('POST', '/workstation/viewer/', {
      body: { viewer: { id: 'v1', name: 'lines.xlsx', sheets: [] } },
    });
    const picked = vi.fn();
    const viewer = createViewerStore(new ApiClient(createIpcTransport(shellBridge(service, null))));
    expect(await viewer.getState().pickFile('sys', picked)).toBeUndefined();
    expect(picked).not.toHaveBeenCalled();
    const uploaded = json(200, { uploadedfiles: [{ name: 'lines.xlsx', id: 'u1' }] });
    const shown = createViewerStore(new ApiClient(createIpcTransport(shellBridge(service, uploaded))));
    expect(await shown.getState().pickFile('sys', picked)).toBe('v1');
    expect(picked).toHaveBeenCalledTimes(1);
    expect(service.calls.find((call) => call.method === 'POST')).toMatchObject({
      url: '/workstation/viewer/',
      body: { from: 'upload', file: 'lines.xlsx', hierarchy: 'sys' },
    });
  });

  it("keeps the page's own picker where the bridge has no dialogs (browser mode, a test's bridge)", () => {
    expect(picksFilesItself(new ApiClient(new FakeTransport()))).toBe(false);
    const bare: BridgeLike = { request: () => Promise.resolve(json(200, {})), onEvent: () => () => undefined };
    expect(picksFilesItself(new ApiClient(createIpcTransport(bare)))).toBe(false);
  });

  it("saves through the shell's save dialog once it is set as the saver", async () => {
    const saved: SaveFileRequest[] = [];
    setFileSaver((file) => {
      saved.push(file);
      return Promise.resolve(true);
    });
    try {
      saveFile(new Uint8Array([1, 2]), 'lines.xlsx', 'application/octet-stream');
      await Promise.resolve();
      expect(saved).toEqual([{ fileName: 'lines.xlsx', bytes: new Uint8Array([1, 2]) }]);
    } finally {
      setFileSaver(undefined);
    }
  });
});
