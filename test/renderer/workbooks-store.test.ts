import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../renderer/src/api/api-client';
import { createWorkbooksStore, type WorkbookSummary } from '../../renderer/src/store/workbooks-store';
import { stateText } from '../../renderer/src/views/WorkbooksView';
import { FakeTransport } from './fake-transport';
import { workbookSummary } from './workbook-fixtures';

const LIST = '/workstation/workbooks/';

const workbook = workbookSummary;

describe('workbooks store', () => {
  it('opens a file: uploads its bytes as multipart at the node, stages the upload, then lists the workbooks again', async () => {
    let listed: WorkbookSummary[] = [];
    const transport = new FakeTransport()
      .on('POST', '/api/uploadfiles/', { body: { uploadedfiles: [{ name: 'lines.xlsx', id: 'u1' }] } })
      .on('POST', LIST, () => {
        listed = [workbook('w1', { name: 'lines.xlsx', state: 'staging' })];
        return { status: 202, body: { success: true, workbook: listed[0] } };
      })
      .on('GET', LIST, () => ({ body: { workbooks: listed } }));
    const store = createWorkbooksStore(new ApiClient(transport));
    const opened = await store.getState().openFile('lines.xlsx', new Uint8Array([80, 75, 3, 4]), 'sys.hcs.Telco.Acme.Paris');
    expect(opened?.id).toBe('w1');
    const upload = transport.calls[0];
    expect(upload.url).toBe('/api/uploadfiles/?hierarchy=sys.hcs.Telco.Acme.Paris');
    const text = new TextDecoder().decode(upload.body as Uint8Array);
    expect(text).toContain('name="uploadedfile"; filename="lines.xlsx"');
    expect(text).toContain('PK\u0003\u0004');
    expect(transport.calls[1]).toMatchObject({
      method: 'POST',
      url: LIST,
      body: { from: 'upload', file: 'lines.xlsx', hierarchy: 'sys.hcs.Telco.Acme.Paris' },
    });
    expect(store.getState().rows.map((row) => row.name)).toEqual(['lines.xlsx']);
    expect(store.getState().busy).toBeUndefined();
  });

  it('shows the service fault when the upload is refused, and stages nothing', async () => {
    const transport = new FakeTransport().on('POST', '/api/uploadfiles/', {
      status: 413,
      body: { success: false, http_code: 413, code: 'too-large', message: 'The file is larger than the 50 MB limit.' },
    });
    const store = createWorkbooksStore(new ApiClient(transport));
    expect(await store.getState().openFile('big.xlsx', new Uint8Array(4), 'sys')).toBeUndefined();
    expect(store.getState().fault).toMatchObject({ status: 413, code: 'too-large' });
    expect(transport.calls.map((call) => call.method + ' ' + call.url.split('?')[0])).toEqual(['POST /api/uploadfiles/']);
  });

  it('duplicates a workbook and lists the copy beside it', async () => {
    let listed: WorkbookSummary[] = [workbook('w1')];
    const transport = new FakeTransport()
      .on('POST', `${LIST}w1/duplicate/`, () => {
        const copy = workbook('w2', { name: 'w1.xlsx (copy)', state: 'validating' });
        listed = [copy, ...listed];
        return { status: 202, body: { success: true, workbook: copy } };
      })
      .on('GET', LIST, () => ({ body: { workbooks: listed } }));
    const store = createWorkbooksStore(new ApiClient(transport));
    await store.getState().load();
    const copy = await store.getState().duplicate('w1');
    expect(copy?.id).toBe('w2');
    expect(store.getState().rows.map((row) => row.name)).toEqual(['w1.xlsx (copy)', 'w1.xlsx']);
  });

  it('says each state as a person reads it', () => {
    expect(stateText(workbook('a'))).toBe('2 errors');
    expect(stateText(workbook('b', { state: 'validated' }))).toBe('ready, 1 warning');
    const load = { transaction_id: 't', running: false, total: 10, loaded: 7, failed: 2, conflicts: 1, not_run: 0, changed: 0 };
    expect(stateText(workbook('c', { state: 'failed', load }))).toBe('loaded 7/10, 3 failed');
    expect(stateText(workbook('d', { state: 'loaded', load: { ...load, loaded: 10, failed: 0, conflicts: 0 } }))).toBe('loaded 10/10');
    expect(stateText(workbook('e', { state: 'failed' }))).toBe('could not be opened');
  });
});
