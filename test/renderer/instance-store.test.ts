import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../renderer/src/api/api-client';
import { fileNameOf } from '../../renderer/src/api/downloads';
import { createInstanceStore, modelTypeOfHref } from '../../renderer/src/store/instance-store';
import { fault } from './fake-transport';
import { ExportingTransport, LINE, lineRelation, XLSX_TYPE } from './instance-fixtures';

function setup() {
  const transport = new ExportingTransport().on('GET', LINE, { body: lineRelation() });
  const store = createInstanceStore(new ApiClient(transport));
  return { transport, store };
}

describe('instance store', () => {
  it('reads the instance and the titles of its form', async () => {
    const { transport, store } = setup();
    transport.on('GET', '/api/relation/LineRelation/add/', {
      body: { schema: { properties: { pattern: { title: 'Directory Number' } } } },
    });
    await store.getState().load(LINE);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getState().loadState).toBe('ready');
    expect(store.getState().instance?.meta.tags).toEqual(['vip', 'migrated']);
    expect(store.getState().titles).toEqual({ pattern: 'Directory Number' });
    expect(transport.lastQuery('/api/relation/LineRelation/add/').get('hierarchy')).toBe('sys.hcs.Telco.Acme.Paris');
  });

  it('adds, clears and version-tags through the +tag/ and +tag_version/ calls, keeping warnings', async () => {
    const { transport, store } = setup();
    transport.on('PATCH', `${LINE}+tag/`, {
      body: { success: true, warnings: ["Tag 'Gold' has capital letters: it is stored, but search will not find it; use lower case."] },
    });
    transport.on('PATCH', `${LINE}+tag_version/`, { body: { success: true, version_tag: '2.0' } });
    await store.getState().load(LINE);
    await store.getState().addTag('Gold');
    expect(store.getState().warnings[0]).toMatch(/capital letters/);
    await store.getState().removeTag('vip');
    await store.getState().setVersionTag('2.0');
    const patches = transport.calls.filter((c) => c.method === 'PATCH').map((c) => decodeURIComponent(c.url));
    expect(patches).toEqual([`${LINE}+tag/?tag=Gold`, `${LINE}+tag/?tag=__CLEAR_TAG__vip`, `${LINE}+tag_version/?version_tag=2.0`]);
    // Each change is followed by a fresh read, so the chips show what the service stored.
    expect(transport.calls.filter((c) => c.method === 'GET' && c.url === LINE)).toHaveLength(4);
  });

  it('keeps a refused tag as an action fault without losing the instance', async () => {
    const { transport, store } = setup();
    transport.on('PATCH', `${LINE}+tag/`, fault(403, 'permission-denied', 'Permission Denied: your role cannot tag.'));
    await store.getState().load(LINE);
    await store.getState().addTag('x');
    expect(store.getState().actionFault?.message).toMatch(/^Permission Denied/);
    expect(store.getState().instance).toBeDefined();
  });

  it('deletes without waiting and gives the transaction id', async () => {
    const { transport, store } = setup();
    transport.on('DELETE', LINE, { status: 202, body: { href: '/api/tool/Transaction/t-9/', success: true, transaction_id: 't-9' } });
    await store.getState().load(LINE);
    expect(await store.getState().remove()).toBe('t-9');
    expect(transport.calls.find((c) => c.method === 'DELETE')?.url).toBe(`${LINE}?nowait=true`);
  });

  it('exports the spreadsheet as bytes named by Content-Disposition', async () => {
    const { transport, store } = setup();
    await store.getState().load(LINE);
    const file = await store.getState().exportSheet();
    expect(file?.fileName).toBe('relation_LineRelation_exportedsheet_formatted_20260101_101010.xlsx');
    expect(file?.type).toBe(XLSX_TYPE);
    expect([...(file?.bytes ?? [])]).toEqual([0x50, 0x4b, 3, 4]);
    expect(transport.lastQuery(`${LINE}export/`).get('export_format')).toBe('xlsx');
  });

  it('shows a missing instance as an error state', async () => {
    const { transport, store } = setup();
    transport.on('GET', LINE, fault(404, 'not-found', 'No relation/LineRelation with that pkid.'));
    await store.getState().load(LINE);
    expect(store.getState().loadState).toBe('error');
    expect(store.getState().fault?.advice).toMatch(/deleted or moved/);
  });

  it('reads model types from hrefs and file names from headers', () => {
    expect(modelTypeOfHref('/api/device/cucm/Line/abc/')).toBe('device/cucm/Line');
    expect(modelTypeOfHref('/api/relation/LineRelation/abc')).toBe('relation/LineRelation');
    expect(fileNameOf('attachment; filename="a b.xlsx"', 'x')).toBe('a b.xlsx');
    expect(fileNameOf(undefined, 'fallback.xlsx')).toBe('fallback.xlsx');
  });
});
