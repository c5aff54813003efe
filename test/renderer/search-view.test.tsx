// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createStores, StoresContext, type Stores } from '../../renderer/src/store/stores';
import { SearchView } from '../../renderer/src/views/SearchView';
import { CATALOG, catalogAnswer, titleIn } from './catalog-fixtures';
import { FakeTransport, listOf } from './fake-transport';
import { hitOf, searchAnswer, SEARCH } from './search-fixtures';

const HOME = 'f'.repeat(24);
afterEach(cleanup);

function signedIn(transport: FakeTransport): Stores {
  const stores = createStores(transport);
  stores.session.setState({
    state: 'signed-in',
    user: { username: 'admin', role: 'admin', hierarchy: 'sys', hierarchy_pkid: HOME, workspace: 'Local', release: '20.1.1' },
  });
  return stores;
}

function show(stores: Stores) {
  return render(
    <StoresContext.Provider value={stores}>
      <SearchView />
    </StoresContext.Provider>,
  );
}

function lineFields() {
  const answer = listOf([]);
  answer.meta = {
    model_type: 'relation/LineRelation',
    summary_attrs: [
      { name: 'pattern', title: 'Directory Number' },
      { name: 'alertingName', title: 'Alerting Name' },
    ],
    actions: {},
  };
  return answer;
}

describe('search view', () => {
  it('runs the top bar’s query and shows the hits grouped by model with a count each', async () => {
    const hits = [
      hitOf('data/HierarchyNode', 'n1', { name: 'Paris', node_type: 'Site' }, 'sys.hcs.Telco.Acme'),
      hitOf('relation/LineRelation', 'l1', { pattern: '+33140001000', alertingName: 'Alice' }),
      hitOf('relation/LineRelation', 'l2', { pattern: '+33140001001', alertingName: 'Bruno' }),
    ];
    const transport = new FakeTransport()
      .on('GET', SEARCH, { body: searchAnswer(hits) })
      .on('GET', '/api/relation/LineRelation/', { body: lineFields() })
      .on('GET', CATALOG, catalogAnswer(HOME));
    const stores = signedIn(transport);
    stores.nav.getState().go({ view: 'search', query: 'Par' });
    show(stores);
    const results = await screen.findByTestId('search-results');
    expect(transport.lastQuery(SEARCH).get('query')).toBe('Par');
    expect(within(results).getByText('3 results in 2 models')).toBeTruthy();
    const groups = within(results).getAllByRole('region');
    // Model titles come from the service's catalog (GET /workstation/models/ at the user's node).
    expect(transport.lastQuery(CATALOG).get('hierarchy')).toBe(HOME);
    await within(results).findByText(titleIn('relation/LineRelation'));
    expect(groups.map((group) => [within(group).getByRole('heading').textContent])).toEqual([
      [`${titleIn('data/HierarchyNode')} data/HierarchyNode 1`],
      [`${titleIn('relation/LineRelation')} relation/LineRelation 2`],
    ]);
    // Field titles come from the model's summary attributes once read.
    expect(await within(groups[1]!).findByText('Directory Number')).toBeTruthy();
    const line = within(groups[1]!).getByText('+33140001001').closest('button')!;
    expect(line.getAttribute('data-href')).toBe('/api/relation/LineRelation/l2/');
    expect(line.textContent).toContain('sys.hcs.Telco.Acme.Paris');
    fireEvent.click(line);
    expect(stores.nav.getState().place).toEqual({
      view: 'instance',
      modelType: 'relation/LineRelation',
      href: '/api/relation/LineRelation/l2/',
    });
  });

  it('says when the results reach the limit', async () => {
    const hits = Array.from({ length: 3 }, (_, i) => hitOf('data/InternalNumberInventory', `i${i}`, { internal_number: `+33${i}` }));
    const answer = { ...searchAnswer(hits, 1000), pagination: { skip: 0, limit: 1000, total: 1000, maximum_limit: 1000 } };
    const stores = signedIn(new FakeTransport().on('GET', SEARCH, { body: answer }));
    show(stores);
    fireEvent.change(screen.getByLabelText('Search query'), { target: { value: '+33' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    });
    expect(screen.getByText(/1,000 results: the limit — narrow the query/)).toBeTruthy();
  });

  it('shows a malformed query’s fault and marks the position it names', async () => {
    const message =
      "Search query error at position 28: expected an operator (is, like, equals, contains, startswith, endswith) after 'pattern', found '+33'.";
    const transport = new FakeTransport().on('GET', SEARCH, {
      status: 400,
      body: { success: false, http_code: 400, code: 'bad-search-query', message, details: [{ field: 'query', message }] },
    });
    const stores = signedIn(transport);
    show(stores);
    const input = screen.getByLabelText<HTMLInputElement>('Search query');
    fireEvent.change(input, { target: { value: 'relation/Line with pattern +33' } });
    await act(async () => {
      fireEvent.submit(input.closest('form')!);
    });
    expect(screen.getByRole('alert').textContent).toContain(message);
    const marked = screen.getByTestId('query-position');
    expect(marked.querySelector('mark')?.textContent).toBe('+');
    expect(input.selectionStart).toBe(27);
    expect(screen.queryByTestId('search-results')).toBeNull();
  });

  it('builds a clause with the helper from the model’s fields', async () => {
    const stores = signedIn(new FakeTransport().on('GET', '/api/relation/LineRelation/', { body: lineFields() }));
    show(stores);
    const field = await screen.findByLabelText<HTMLSelectElement>('Field');
    expect(await within(field).findByText('Alerting Name (alertingName)')).toBeTruthy();
    fireEvent.change(field, { target: { value: 'alertingName' } });
    fireEvent.change(screen.getByLabelText('Operator'), { target: { value: 'contains' } });
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'Alice Martin' } });
    fireEvent.click(screen.getByRole('button', { name: 'Use clause' }));
    expect(screen.getByLabelText<HTMLInputElement>('Search query').value).toBe(
      'relation/LineRelation with alertingName contains "Alice Martin"',
    );
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: '+44' } });
    fireEvent.change(screen.getByLabelText('Join with'), { target: { value: 'or' } });
    fireEvent.change(field, { target: { value: 'pattern' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add with or' }));
    expect(stores.search.getState().query).toBe('relation/LineRelation with alertingName contains "Alice Martin" or pattern contains +44');
  });
});
