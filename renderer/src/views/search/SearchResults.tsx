import { useEffect, useMemo } from 'react';
import { titleOf } from '../../store/catalog-store';
import type { SearchGroup } from '../../store/search-store';
import { useSlice, useStores } from '../../store/stores';
import { useKnownModels } from '../../store/use-model-catalog';
import { Empty, Loading } from '../../components/States';
import { ExportControl } from './ExportControl';
import { SearchExportButtons } from './SearchExportButtons';

/** The hits of the last search, one section per model type with its count. */
export function SearchResults() {
  const state = useSlice('search', (s) => s.state);
  const groups = useSlice('search', (s) => s.groups);
  const total = useSlice('search', (s) => s.total);
  const limit = useSlice('search', (s) => s.limit);
  if (state === 'idle')
    return <Empty title="Type a query and press Search.">Or type a text in the search box at the top of the window.</Empty>;
  if (state === 'loading') return <Loading what="search results" />;
  if (state === 'error') return null;
  if (state === 'empty') return <Empty title="Nothing found.">Check the spelling, widen the scope above, or use a shorter text.</Empty>;
  return (
    <div className="search-results" data-testid="search-results" data-total={total}>
      <div className="toolbar">
        <strong>
          {total.toLocaleString('en')} {total === 1 ? 'result' : 'results'} in {groups.length} {groups.length === 1 ? 'model' : 'models'}
        </strong>
        <span className="spacer" />
        <ExportControl />
        <SearchExportButtons />
      </div>
      {total >= limit && (
        <p className="search-cap" role="note">
          {limit.toLocaleString('en')} results: the limit — narrow the query to see the rest.
        </p>
      )}
      {groups.map((group) => (
        <ResultGroup key={group.modelType} group={group} />
      ))}
    </div>
  );
}

function ResultGroup({ group }: { group: SearchGroup }) {
  const { nav, search } = useStores();
  const home = useSlice('session', (s) => s.user?.hierarchy_pkid);
  const entry = useSlice('search', (s) => s.fields[group.modelType]);
  const models = useKnownModels();
  useEffect(() => {
    if (home) void search.getState().loadFields(group.modelType, home);
  }, [group.modelType, home, search]);
  // The summary attributes the hits carry, in their first appearance's order.
  const columns = useMemo(() => [...new Set(group.hits.flatMap((hit) => Object.keys(hit.data)))], [group.hits]);
  const titles = useMemo(() => new Map((entry?.state === 'ready' ? entry.attrs : []).map((attr) => [attr.name, attr.title])), [entry]);
  const template = `repeat(${Math.max(columns.length, 1)}, minmax(0, 1fr)) minmax(160px, 0.8fr)`;
  const headingId = `group-${group.modelType.replace(/\W/g, '-')}`;
  return (
    <section className="search-group" aria-labelledby={headingId} data-model-type={group.modelType}>
      <h2 id={headingId}>
        {titleOf(models, group.modelType)} <code className="muted">{group.modelType}</code>{' '}
        <span className="search-count">{group.hits.length.toLocaleString('en')}</span>
      </h2>
      <div className="search-hit search-hit-head" style={{ gridTemplateColumns: template }} aria-hidden="true">
        {columns.map((column) => (
          <span key={column}>{titles.get(column) ?? column}</span>
        ))}
        <span>Hierarchy</span>
      </div>
      {group.hits.map((hit) => (
        <button
          key={hit.meta.pkid}
          type="button"
          className="search-hit"
          style={{ gridTemplateColumns: template }}
          data-href={hit.meta.href}
          onClick={() => nav.getState().go({ view: 'instance', modelType: hit.meta.model_type, href: hit.meta.href })}
        >
          {columns.map((column, index) => (
            <span key={column} className={index === 0 ? 'search-hit-key' : undefined}>
              {textOf(hit.data[column])}
            </span>
          ))}
          <span className="muted search-hit-path" title={hit.meta.hierarchy}>
            {hit.meta.hierarchy}
          </span>
        </button>
      ))}
    </section>
  );
}

function textOf(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
