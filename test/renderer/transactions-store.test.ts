import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../renderer/src/api/api-client';
import { createTransactionsStore } from '../../renderer/src/store/transactions-store';
import { fault, FakeTransport } from './fake-transport';
import { txDetail, txList, txSummary } from './transactions-fixtures';

const LIST = '/api/tool/Transaction/';
const NODE = 'c'.repeat(24);
const fast = { refreshMs: 5, pollMs: 5 };
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('transactions store: list', () => {
  it('asks for the node, newest first, with the status and model type filters as exact matches', async () => {
    const transport = new FakeTransport().on('GET', LIST, { body: txList([txSummary('t1', 'Fail')], 120) });
    const store = createTransactionsStore(new ApiClient(transport), fast);
    await store.getState().loadList(NODE);
    await store.getState().setFilters({ status: 'Fail', modelType: 'relation/LineRelation' });
    const query = transport.lastQuery(LIST);
    expect(query.get('hierarchy')).toBe(NODE);
    expect(query.get('order_by')).toBe('submitted_time');
    expect(query.get('direction')).toBe('desc');
    expect(query.getAll('filter_field')).toEqual(['status', 'status', 'model_type', 'model_type']);
    expect(query.getAll('filter_condition')).toEqual(['startswith', 'endswith', 'startswith', 'endswith']);
    expect(query.getAll('filter_text')).toEqual(['Fail', 'Fail', 'relation/LineRelation', 'relation/LineRelation']);
    expect(query.getAll('filter_condition')).not.toContain('equals');
    expect(store.getState().rows.map((row) => row.transaction_id)).toEqual(['t1']);
    expect(store.getState().total).toBe(120);

    await store.getState().setSkip(50);
    expect(transport.lastQuery(LIST).get('skip')).toBe('50');
    await store.getState().setFilters({ status: '' });
    expect(transport.lastQuery(LIST).get('skip')).toBe('0');
    expect(transport.lastQuery(LIST).getAll('filter_field')).toEqual(['model_type', 'model_type']);
    store.getState().stopList();
  });

  it('refreshes while a listed transaction runs and stops once all have finished', async () => {
    let calls = 0;
    const transport = new FakeTransport().on('GET', LIST, () => {
      calls++;
      return { body: txList([txSummary('t1', calls < 3 ? 'Processing' : 'Success'), txSummary('t2', 'Success')]) };
    });
    const store = createTransactionsStore(new ApiClient(transport), fast);
    await store.getState().loadList(NODE);
    expect(store.getState().autoRefreshing).toBe(true);
    await wait(80);
    expect(calls).toBe(3);
    expect(store.getState().rows[0]?.status).toBe('Success');
    expect(store.getState().autoRefreshing).toBe(false);
  });

  it('stops refreshing when the view is left', async () => {
    const transport = new FakeTransport().on('GET', LIST, { body: txList([txSummary('t1', 'Queued')]) });
    const store = createTransactionsStore(new ApiClient(transport), fast);
    await store.getState().loadList(NODE);
    store.getState().stopList();
    const before = transport.calls.length;
    await wait(40);
    expect(transport.calls.length).toBe(before);
  });

  it('keeps a fault with its message and an empty list as empty', async () => {
    const transport = new FakeTransport().on(
      'GET',
      LIST,
      fault(403, 'permission-denied', 'Permission Denied: sys.Other is outside your hierarchy.'),
    );
    const store = createTransactionsStore(new ApiClient(transport), fast);
    await store.getState().loadList(NODE);
    expect(store.getState().listState).toBe('error');
    expect(store.getState().listFault?.message).toMatch(/^Permission Denied/);
    transport.on('GET', LIST, { body: txList([]) });
    await store.getState().loadList(NODE);
    expect(store.getState().listState).toBe('empty');
  });
});

describe('transactions store: detail', () => {
  it('follows an unfinished transaction until it finishes, with its log oldest first', async () => {
    const id = 'tx-1';
    let reads = 0;
    const transport = new FakeTransport().on('GET', `${LIST}${id}/`, () => {
      reads++;
      if (reads === 1) return { body: txDetail(id, 'In Progress', [{ id: 7, severity: 'info', message: 'Transaction started' }]) };
      return {
        body: txDetail(id, 'Success', [
          { id: 7, severity: 'info', message: 'Transaction started' },
          { id: 8, severity: 'warning', message: 'Step 1 - Start' },
          { id: 10, severity: 'info', message: 'Transaction completed successfully.' },
        ]),
      };
    });
    const store = createTransactionsStore(new ApiClient(transport), fast);
    await store.getState().openDetail(id);
    expect(reads).toBe(2);
    expect(store.getState().detail?.status).toBe('Success');
    expect(store.getState().detail?.log.map((entry) => entry.message)).toEqual([
      'Transaction started',
      'Step 1 - Start',
      'Transaction completed successfully.',
    ]);
    await wait(30);
    expect(reads).toBe(2);
  });

  it('stops following when the detail is closed', async () => {
    const transport = new FakeTransport().on('GET', `${LIST}tx-2/`, { body: txDetail('tx-2', 'Queued', []) });
    const store = createTransactionsStore(new ApiClient(transport), fast);
    const following = store.getState().openDetail('tx-2');
    await wait(20);
    store.getState().closeDetail();
    await following;
    const before = transport.calls.length;
    await wait(30);
    expect(transport.calls.length).toBe(before);
  });

  it('shows a missing transaction as a fault', async () => {
    const transport = new FakeTransport().on('GET', `${LIST}nope/`, fault(404, 'not-found', 'Transaction nope was not found.'));
    const store = createTransactionsStore(new ApiClient(transport), fast);
    await store.getState().openDetail('nope');
    expect(store.getState().detailState).toBe('error');
    expect(store.getState().detailFault?.message).toBe('Transaction nope was not found.');
  });
});
