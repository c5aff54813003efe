import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../renderer/src/api/api-client';
import { createStatusStore } from '../../renderer/src/store/status-store';
import type { ServiceEvent } from '../../preload/bridge-types';
import { EventTransport as EventsFake, FakeTransport } from './fake-transport';

/** The fake transport with the service's events, counting the polls of a transaction. */
class EventTransport extends EventsFake {
  polls(id: string): number {
    return this.calls.filter((call) => call.url === `/api/tool/Transaction/${id}/poll/`).length;
  }
}

const transaction = (id: string, status: string): ServiceEvent => ({
  type: 'transaction',
  transaction_id: id,
  status,
  parent_id: null,
  model_type: 'data/HierarchyNode',
  resource_pkid: null,
});

function setUp(statusOf: () => string) {
  const transport = new EventTransport();
  transport.on('GET', '/api/tool/Transaction/tx-1/poll/', () => ({ body: { 'tx-1': { status: statusOf(), href: '/x' } } }));
  const store = createStatusStore(new ApiClient(transport), { fallbackMs: 10_000, lingerMs: 1_000 });
  return { transport, store };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the status store follows transactions by their events', () => {
  it('asks once, then learns the rest from events, without polling', async () => {
    vi.useFakeTimers();
    const { transport, store } = setUp(() => 'Queued');
    const done = store.getState().track('tx-1', 'Add data/HierarchyNode');
    await vi.advanceTimersByTimeAsync(0);
    expect(transport.polls('tx-1')).toBe(1);
    expect(transport.subscribers.size).toBe(1);
    // Much longer than the old 400 ms poll: nothing is asked meanwhile.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(transport.polls('tx-1')).toBe(1);
    transport.emit(transaction('tx-1', 'In Progress'));
    expect(store.getState().running['tx-1']?.status).toBe('In Progress');
    transport.emit(transaction('other', 'Success'));
    expect(store.getState().lastFinished).toBeUndefined();
    transport.emit(transaction('tx-1', 'Success'));
    await expect(done).resolves.toBe('Success');
    expect(store.getState().running).toEqual({});
    expect(store.getState().lastFinished).toEqual({ id: 'tx-1', label: 'Add data/HierarchyNode', status: 'Success' });
    expect(transport.polls('tx-1')).toBe(1);
    // The stream stays a little for the next transaction, then closes.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(transport.subscribers.size).toBe(0);
  });

  it('finds a transaction that finished before it was followed by asking at once', async () => {
    const { store } = setUp(() => 'Success');
    await expect(store.getState().track('tx-1', 'Delete')).resolves.toBe('Success');
    expect(store.getState().lastFinished?.status).toBe('Success');
  });

  it('asks again when the stream reconnects, and every fallback period in case events were lost', async () => {
    vi.useFakeTimers();
    let status = 'Queued';
    const { transport, store } = setUp(() => status);
    const done = store.getState().track('tx-1', 'Add');
    await vi.advanceTimersByTimeAsync(0);
    transport.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(transport.polls('tx-1')).toBe(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(transport.polls('tx-1')).toBe(3);
    status = 'Fail';
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(done).resolves.toBe('Fail');
  });

  it('still follows a transaction over a transport without events, by the fallback alone', async () => {
    vi.useFakeTimers();
    let status = 'In Progress';
    const transport = new FakeTransport();
    transport.on('GET', '/api/tool/Transaction/tx-1/poll/', () => ({ body: { 'tx-1': { status, href: '/x' } } }));
    const store = createStatusStore(new ApiClient(transport), { fallbackMs: 10_000 });
    const done = store.getState().track('tx-1', 'Add');
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().running['tx-1']?.status).toBe('In Progress');
    status = 'Success';
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(done).resolves.toBe('Success');
  });
});
