import type { SearchDirection } from '../../store/search-store';
import { useSlice, useStores } from '../../store/stores';

const DIRECTIONS: { value: SearchDirection; title: string }[] = [
  { value: 'down', title: 'the node and below' },
  { value: 'local', title: 'the node only' },
  { value: 'up', title: 'the node and above' },
  { value: 'all', title: 'above and below the node' },
];

/**
 * Where the search looks (spec "Search rules"): from the signed-in user's node unless the
 * selected node is chosen, in one of the four directions.
 */
export function SearchScopeBar() {
  const { search } = useStores();
  const scope = useSlice('search', (s) => s.scope);
  const selected = useSlice('hierarchy', (s) => s.selected);
  const selectedPath = useSlice('hierarchy', (s) => (s.selected ? s.nodes[s.selected]?.path : undefined));
  const home = useSlice('session', (s) => s.user?.hierarchy);
  const scopePath = useSlice('hierarchy', (s) => (scope.node ? (s.nodes[scope.node]?.path ?? scope.node) : undefined));
  const store = search.getState();
  // A node chosen earlier that is no longer the selected one is still named, not silently replaced.
  const fromSelected = scope.node !== undefined;
  return (
    <div className="toolbar search-scope">
      <label>
        Search from{' '}
        <select
          value={fromSelected ? 'selected' : 'mine'}
          onChange={(event) => store.setScope({ node: event.target.value === 'selected' ? selected : undefined })}
        >
          <option value="mine">my node{home ? ` (${home})` : ''}</option>
          <option value="selected" disabled={!selected}>
            the selected node{(scopePath ?? selectedPath) ? ` (${scopePath ?? selectedPath})` : ''}
          </option>
        </select>
      </label>
      <label>
        Look at{' '}
        <select value={scope.direction} onChange={(event) => store.setScope({ direction: event.target.value as SearchDirection })}>
          {DIRECTIONS.map((direction) => (
            <option key={direction.value} value={direction.value}>
              {direction.title}
            </option>
          ))}
        </select>
      </label>
      {fromSelected && scope.node !== selected && selected && (
        <button type="button" className="link" onClick={() => store.setScope({ node: selected })}>
          Use the node selected now ({selectedPath})
        </button>
      )}
    </div>
  );
}
