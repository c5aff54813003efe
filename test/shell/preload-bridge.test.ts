import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceEvent, WorkstationBridge } from '../../preload/bridge-types';
import { EVENT_CHANNEL, forwardServiceEvents } from '../../main/shell/service-events';
import type { TransactionEvent } from '../../main/service/transactions/engine';

/** Electron's preload side, as the bridge uses it: an exposed-world registry and ipcRenderer. */
const fake = vi.hoisted(() => ({ exposed: new Map<string, unknown>(), ipcRenderer: undefined as EventEmitter | undefined }));
vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  // A plain emitter stands in for ipcRenderer's events; invoke answers with what it was asked.
  const ipcRenderer = Object.assign(new Emitter(), {
    invoke: (channel: string, request: unknown) => Promise.resolve({ channel, request }),
  });
  fake.ipcRenderer = ipcRenderer;
  return { contextBridge: { exposeInMainWorld: (key: string, api: unknown) => fake.exposed.set(key, api) }, ipcRenderer };
});
const exposed = fake.exposed;
const ipc = (): EventEmitter => fake.ipcRenderer as EventEmitter;

let bridge: WorkstationBridge;
beforeAll(async () => {
  await import('../../preload/index');
  bridge = exposed.get('workstation') as WorkstationBridge;
});

const update: TransactionEvent = {
  transaction_id: 't-1',
  status: 'Success',
  parent_id: null,
  model_type: 'data/Countries',
  resource_pkid: 'p-1',
};

describe('the preload bridge', () => {
  it('exposes named functions only, as window.workstation', () => {
    expect([...exposed.keys()]).toEqual(['workstation']);
    expect(Object.keys(bridge).sort()).toEqual(['onEvent', 'openWorkbookFile', 'request', 'saveFile']);
  });

  it('asks main for its open and save dialogs on their own channels, with no path from the page', async () => {
    await expect(bridge.openWorkbookFile('sys.hcs')).resolves.toEqual({ channel: 'file:open-workbook', request: 'sys.hcs' });
    const file = { fileName: 'lines.xlsx', bytes: new Uint8Array([1]) };
    await expect(bridge.saveFile(file)).resolves.toEqual({ channel: 'file:save', request: file });
  });

  it('sends every request on the one api:request channel', async () => {
    const request = { method: 'GET', url: '/api/whoami/' };
    await expect(bridge.request(request)).resolves.toEqual({ channel: 'api:request', request });
  });

  it('hands listeners the event payload only, and unsubscribes', () => {
    const received: ServiceEvent[] = [];
    const unsubscribe = bridge.onEvent((event) => received.push(event));
    const payload: ServiceEvent = { type: 'transaction', ...update };
    ipc().emit(EVENT_CHANNEL, { sender: 'the IPC event' }, payload);
    expect(received).toEqual([payload]);
    unsubscribe();
    ipc().emit(EVENT_CHANNEL, {}, payload);
    expect(received).toHaveLength(1);
    expect(ipc().listenerCount(EVENT_CHANNEL)).toBe(0);
  });

  it('requires nothing but electron at run time, as a sandboxed preload must', () => {
    const source = readFileSync(join(__dirname, '..', '..', 'preload', 'index.ts'), 'utf8');
    const runtimeImports = [...source.matchAll(/^import (?!type\b).*from '([^']+)'/gm)].map((match) => match[1]);
    expect(runtimeImports).toEqual(['electron']);
  });
});

describe('service events to the window', () => {
  it('forwards transaction events on the fixed channel until unsubscribed', () => {
    const events = new EventEmitter();
    const sent: unknown[][] = [];
    let destroyed = false;
    const stop = forwardServiceEvents(events, { send: (...args) => sent.push(args), isDestroyed: () => destroyed });
    events.emit('transaction', update);
    expect(sent).toEqual([['service:event', { type: 'transaction', ...update }]]);
    destroyed = true;
    events.emit('transaction', update);
    expect(sent).toHaveLength(1);
    stop();
    expect(events.listenerCount('transaction')).toBe(0);
  });

  it("relays a load's progress and its parent, never its rows one by one", () => {
    const events = new EventEmitter();
    const sent: unknown[] = [];
    const stop = forwardServiceEvents(events, { send: (_channel, event) => sent.push(event), isDestroyed: () => false });
    const parent = { ...update, transaction_id: 'parent-1', parent_id: null, model_type: 'tool/BulkLoad' };
    for (let row = 0; row < 1000; row += 1) events.emit('transaction', { ...update, transaction_id: `row-${row}`, parent_id: 'parent-1' });
    const progress = {
      transaction_id: 'parent-1',
      done: 1000,
      succeeded: 999,
      failed: 1,
      total: 1000,
      detail: '[ 999/1000 ] succeeded from [ 1 ] sheet in lines.xlsx',
    };
    events.emit('progress', progress);
    events.emit('transaction', parent);
    expect(sent).toEqual([
      { type: 'progress', ...progress },
      { type: 'transaction', ...parent },
    ]);
    stop();
    expect(events.listenerCount('progress')).toBe(0);
  });
});
