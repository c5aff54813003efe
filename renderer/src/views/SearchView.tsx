import { useEffect, useRef } from 'react';
import { useSlice, useStores } from '../store/stores';
import { QueryFault } from './search/QueryFault';
import { QueryHelper } from './search/QueryHelper';
import { SearchResults } from './search/SearchResults';
import { SearchScopeBar } from './search/SearchScopeBar';
import './search/search.css';

/** A query in the search grammar (typed, or built with the helper), its scope, and the hits by model. */
export function SearchView() {
  const { search } = useStores();
  const navQuery = useSlice('nav', (s) => s.place.query);
  const query = useSlice('search', (s) => s.query);
  const state = useSlice('search', (s) => s.state);
  const input = useRef<HTMLInputElement>(null);

  // Text typed in the top bar's search box arrives here through the navigation store.
  useEffect(() => {
    if (navQuery) void search.getState().searchFromNav(navQuery);
  }, [navQuery, search]);

  return (
    <section className="search-view" aria-labelledby="search-title">
      <h1 id="search-title" className="view-title">
        Search
      </h1>
      <form
        className="search-form"
        role="search"
        aria-label="Search resources"
        onSubmit={(event) => {
          event.preventDefault();
          void search.getState().search();
        }}
      >
        <input
          ref={input}
          className="search-query"
          aria-label="Search query"
          spellCheck={false}
          placeholder="relation/LineRelation with pattern startswith +33 — or a bare text such as Paris"
          value={query}
          onChange={(event) => search.getState().setQuery(event.target.value)}
        />
        <button type="submit" className="primary" disabled={query.trim() === '' || state === 'loading'}>
          Search
        </button>
      </form>
      <SearchScopeBar />
      <details className="search-grammar">
        <summary>Query grammar</summary>
        <p>
          <code>&lt;type&gt;/&lt;name&gt; with &lt;field&gt; &lt;op&gt; &lt;text&gt;</code> — operators <code>is</code>, <code>like</code>,{' '}
          <code>equals</code>, <code>contains</code>, <code>startswith</code>, <code>endswith</code>; join clauses with <code>and</code> /{' '}
          <code>or</code> and group them with brackets; quote a text with <code>'</code> or <code>"</code> when it holds spaces or a
          keyword. A bare text (<code>Paris</code>) finds every data and device resource whose summary attributes start with it. At most
          1,000 results.
        </p>
        <p className="muted">
          Example:{' '}
          <code>relation/LineRelation with (pattern startswith +331 or pattern startswith +332) and alertingName like "Martin"</code>
        </p>
      </details>
      <QueryHelper onAppended={() => input.current?.focus()} />
      <QueryFault input={input} />
      <SearchResults />
    </section>
  );
}
