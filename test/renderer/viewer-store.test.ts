import { describe, expect, it } from 'vitest';
import type { ViewerFindAnswer, ViewerInfo, ViewerRowPage, ViewerSheet } from '../../main/service/contract/viewer-api';
import { ApiClient } from '../../renderer/src/api/api-client';
import { createViewerStore, VIEWER_PAGE_ROWS } from '../../renderer/src/store/viewer-store';
import { FakeTransport } from './fake-transport';

const VIEWER = '/workstation/viewer/';
const PARIS = 'sys.hcs.Telco.Acme.Paris';

function sheet(index: number, name: string, rows: number): ViewerSheet {
  return {
    index,
    name,
    skipped: name.startsWith('#'),
    directive: index === 1 ? `entity: relation/LineRelation; hierarchy: ${PARIS}` : null,
    header_rows: index === 1 ? 4 : 1,
    frozen_columns: 1,
    columns: [
      { letter: 'A', title: 'Directory Number', name: 'pattern', width: 96 },
      { letter: 'B', title: 'Alerting Name', name: 'alertingName', width: null },
    ],
    rows,
  };
}

const INFO: ViewerInfo = {
  id: 'v1',
  name: 'LineRelation-export.xlsx',
  source: { from: 'export', model_type: 'relation/LineRelation', hierarchy: PARIS },
  // A `#` sheet first: the viewer opens on the first sheet a loader would read.
  sheets: [sheet(0, '#notes', 1), sheet(1, 'LineRelation', 450)],
  truncated: false,
  expires_at: '2026-11-26T11:00:00.000Z',
};

/** Rows of sheet 1 as the service pages them: row i holds +3314000 followed by i. */
function page(call: { url: string }): { body: ViewerRowPage } {
  const query = new URLSearchParams(call.url.split('?')[1]);
  const skip = Number(query.get('skip'));
  const limit = Number(query.get('limit'));
  const rows = Array.from({ length: Math.max(0, Math.min(limit, 450 - skip)) }, (_, at) => ({
    row: skip + at + 5,
    cells: [`+3314000${skip + at}`, `Line ${skip + at}`],
  }));
  return { body: { sheet: 1, total: 450, skip, rows } };
}

function service(): FakeTransport {
  return new FakeTransport()
    .on('POST', VIEWER, { body: { success: true, viewer: INFO } })
    .on('GET', `${VIEWER}v1/`, { body: { success: true, viewer: INFO } })
    .on('GET', `${VIEWER}v1/sheets/1/rows/`, page)
    .on('GET', `${VIEWER}v1/sheets/0/rows/`, { body: { sheet: 0, total: 1, skip: 0, rows: [{ row: 2, cells: ['a note', ''] }] } });
}

async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('viewer store', () => {
  it('opens an export on its first loaded sheet and reads its rows a page at a time as the grid reaches them', async () => {
    const transport = service();
    const store = createViewerStore(new ApiClient(transport));
    const id = await store.getState().open({ from: 'export', model_type: 'relation/LineRelation', hierarchy: PARIS });
    expect(id).toBe('v1');
    expect(transport.calls[0]).toMatchObject({
      method: 'POST',
      url: VIEWER,
      body: { from: 'export', model_type: 'relation/LineRelation', hierarchy: PARIS },
    });
    expect(store.getState().sheet).toBe(1);
    expect(store.getState().rowAt(0)?.cells).toEqual(['+33140000', 'Line 0']);
    // Row 300 is on the second page: not there yet, read once, there after.
    expect(store.getState().rowAt(300)).toBeUndefined();
    store.getState().rowAt(301);
    await settle();
    expect(store.getState().rowAt(300)?.cells[0]).toBe('+3314000300');
    const reads = transport.calls.filter((call) => call.url.startsWith(`${VIEWER}v1/sheets/1/rows/`));
    expect(reads.map((call) => new URLSearchParams(call.url.split('?')[1]).get('skip'))).toEqual(['0', String(VIEWER_PAGE_ROWS)]);

    store.getState().showSheet(0);
    await settle();
    expect(store.getState().rowAt(0)?.cells).toEqual(['a note', '']);
  });

  it('finds: steps through the matches, wrapping, and shows the sheet of each', async () => {
    const found: ViewerFindAnswer = {
      text: 'note',
      total: 3,
      matches: [
        { sheet: 0, index: 0, column: 0 },
        { sheet: 1, index: 250, column: 1 },
        { sheet: 1, index: 7, column: 1 },
      ],
    };
    const transport = service().on('GET', `${VIEWER}v1/find/`, { body: found });
    const store = createViewerStore(new ApiClient(transport));
    await store.getState().open({ from: 'export', model_type: 'relation/LineRelation', hierarchy: PARIS });
    await store.getState().search('note');
    expect(transport.lastQuery(`${VIEWER}v1/find/`).get('text')).toBe('note');
    // The first match is shown at once: on the # sheet.
    expect(store.getState().find?.at).toBe(0);
    expect(store.getState().sheet).toBe(0);
    expect(store.getState().step(1)).toEqual({ sheet: 1, index: 250, column: 1 });
    expect(store.getState().sheet).toBe(1);
    store.getState().step(1);
    expect(store.getState().step(1)).toEqual({ sheet: 0, index: 0, column: 0 });
    expect(store.getState().step(-1)).toEqual({ sheet: 1, index: 7, column: 1 });
    await store.getState().search('');
    expect(store.getState().find).toBeUndefined();
  });

  it('edits as a workbook: stages the same source, with the viewer name, and answers once staging has stored its rows', async () => {
    let asked = 0;
    const transport = service()
      .on('POST', '/workstation/workbooks/', { status: 202, body: { success: true, workbook: { id: 'w9', state: 'staging' } } })
      .on('GET', '/workstation/workbooks/w9/', () => ({
        body: { success: true, workbook: { id: 'w9', state: (asked += 1) === 1 ? 'staging' : 'validating' } },
      }));
    const store = createViewerStore(new ApiClient(transport));
    await store.getState().open({ from: 'export', model_type: 'relation/LineRelation', hierarchy: PARIS });
    expect(await store.getState().editAsWorkbook()).toBe('w9');
    expect(asked).toBe(2);
    expect(transport.calls.find((call) => call.url === '/workstation/workbooks/')).toMatchObject({
      method: 'POST',
      url: '/workstation/workbooks/',
      body: { ...INFO.source, name: 'LineRelation-export.xlsx' },
    });
  });

  it('views a local file: uploads it at the node, then opens the upload; a refusal is kept as the fault', async () => {
    const transport = service()
      .on('POST', '/api/uploadfiles/', { body: { uploadedfiles: [{ name: 'notes.xlsx' }] } })
      .on('POST', VIEWER, {
        status: 415,
        body: { success: false, http_code: 415, code: 'unsupported-media-type', message: 'notes.xlsx is not an .xlsx workbook' },
      });
    const store = createViewerStore(new ApiClient(transport));
    expect(await store.getState().openFile('notes.xlsx', new Uint8Array([1, 2]), PARIS)).toBeUndefined();
    expect(transport.calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      `POST /api/uploadfiles/?hierarchy=${encodeURIComponent(PARIS).replace(/%2E/g, '.')}`,
      `POST ${VIEWER}`,
    ]);
    expect(transport.calls[1].body).toEqual({ from: 'upload', file: 'notes.xlsx', hierarchy: PARIS });
    expect(store.getState().fault?.message).toMatch(/not an \.xlsx workbook/);
    expect(store.getState().busy).toBeUndefined();
  });
});
