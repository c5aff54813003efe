import { useEffect, useState } from 'react';
import { useSlice, useStores } from '../store/stores';
import { FaultNotice } from './FaultNotice';
import { HierarchyTree } from './HierarchyTree';
import { Loading } from './States';

/** The left panel: a filter box over the hierarchy tree; a filter lists matching nodes anywhere below. */
export function TreePanel() {
  const { hierarchy } = useStores();
  const rootPkid = useSlice('hierarchy', (s) => s.rootPkid);
  const rootFault = useSlice('hierarchy', (s) => s.rootFault);
  const hits = useSlice('hierarchy', (s) => s.filterHits);
  const filterFault = useSlice('hierarchy', (s) => s.filterFault);
  const [text, setText] = useState('');

  useEffect(() => {
    const timer = setTimeout(() => void hierarchy.getState().setFilter(text), 200);
    return () => clearTimeout(timer);
  }, [text, hierarchy]);

  return (
    <nav className="tree-panel" aria-label="Hierarchy navigation">
      <input
        className="tree-filter"
        type="search"
        placeholder="Filter nodes…"
        aria-label="Filter hierarchy nodes"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && hits?.[0]) {
            void hierarchy.getState().reveal(hits[0]);
            setText('');
          }
        }}
      />
      {rootFault && <FaultNotice fault={rootFault} />}
      {!rootFault && !rootPkid && <Loading what="the hierarchy" />}
      {hits ? (
        <ul className="filter-hits" aria-label="Matching nodes">
          {filterFault && <FaultNotice fault={filterFault} />}
          {hits.length === 0 && !filterFault && <li className="muted">No node name contains “{text}”.</li>}
          {hits.map((hit) => (
            <li key={hit.pkid}>
              <button
                type="button"
                onClick={() => {
                  void hierarchy.getState().reveal(hit);
                  setText('');
                }}
              >
                <span>{hit.path}</span> <span className="tree-type">{hit.nodeType}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        rootPkid && <HierarchyTree />
      )}
    </nav>
  );
}
