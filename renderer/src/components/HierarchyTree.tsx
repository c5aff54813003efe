import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { visibleRows, type TreeNode } from '../store/hierarchy-store';
import { useSlice, useStores } from '../store/stores';
import { FaultNotice } from './FaultNotice';
import { useVirtualWindow } from './use-virtual-window';

const ROW_HEIGHT = 26;

/**
 * The hierarchy as an ARIA tree. Children load on demand; only the rows in view are rendered, so
 * a node with 10,000 children opens as fast as one with ten. Focus stays on the tree and the
 * active row is named by aria-activedescendant, so the keyboard works on rows not yet rendered.
 */
export function HierarchyTree() {
  const { hierarchy } = useStores();
  const nodes = useSlice('hierarchy', (s) => s.nodes);
  const rootPkid = useSlice('hierarchy', (s) => s.rootPkid);
  const expanded = useSlice('hierarchy', (s) => s.expanded);
  const selected = useSlice('hierarchy', (s) => s.selected);
  const rows = useMemo(() => visibleRows({ nodes, rootPkid, expanded }), [nodes, rootPkid, expanded]);
  const [active, setActive] = useState<string | undefined>(selected);
  const scroller = useRef<HTMLDivElement>(null);
  const view = useVirtualWindow(scroller, rows.length, ROW_HEIGHT);
  const activeIndex = Math.max(
    0,
    rows.findIndex((row) => row.pkid === (active ?? selected)),
  );

  useEffect(() => view.scrollIntoView(activeIndex), [activeIndex, view]);

  const move = (index: number): void => {
    const row = rows[Math.min(rows.length - 1, Math.max(0, index))];
    if (row) setActive(row.pkid);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const row = rows[activeIndex];
    if (!row) return;
    const node = nodes[row.pkid];
    const handled = keyAction(event.key, {
      down: () => move(activeIndex + 1),
      up: () => move(activeIndex - 1),
      home: () => move(0),
      end: () => move(rows.length - 1),
      right: () => {
        if (!expanded[row.pkid]) void hierarchy.getState().expand(row.pkid);
        else if (node?.children?.length) move(activeIndex + 1);
      },
      left: () => {
        if (expanded[row.pkid] && row.depth > 0) hierarchy.getState().collapse(row.pkid);
        else if (node?.parent) setActive(node.parent);
      },
      select: () => hierarchy.getState().select(row.pkid),
    });
    if (handled) event.preventDefault();
  };

  const root = rootPkid ? nodes[rootPkid] : undefined;
  return (
    <div
      ref={scroller}
      className="tree"
      role="tree"
      aria-label="Hierarchy"
      tabIndex={0}
      aria-activedescendant={rows[activeIndex] ? `tree-${rows[activeIndex].pkid}` : undefined}
      onKeyDown={onKeyDown}
      onScroll={view.onScroll}
    >
      <div style={{ height: rows.length * ROW_HEIGHT, position: 'relative' }}>
        {rows.slice(view.first, view.last).map((row, offset) => {
          const node = nodes[row.pkid];
          if (!node) return null;
          const index = view.first + offset;
          return (
            <TreeRow
              key={row.pkid}
              node={node}
              depth={row.depth}
              top={index * ROW_HEIGHT}
              expanded={Boolean(expanded[row.pkid])}
              selected={selected === row.pkid}
              active={index === activeIndex}
              onToggle={() => (expanded[row.pkid] ? hierarchy.getState().collapse(row.pkid) : void hierarchy.getState().expand(row.pkid))}
              onSelect={() => {
                setActive(row.pkid);
                hierarchy.getState().select(row.pkid);
              }}
            />
          );
        })}
      </div>
      {root?.fault && <FaultNotice fault={root.fault} onRetry={() => void hierarchy.getState().refreshChildren(root.pkid)} />}
    </div>
  );
}

interface RowProps {
  node: TreeNode;
  depth: number;
  top: number;
  expanded: boolean;
  selected: boolean;
  active: boolean;
  onToggle(): void;
  onSelect(): void;
}

function TreeRow({ node, depth, top, expanded, selected, active, onToggle, onSelect }: RowProps) {
  const shown = node.children?.length ?? 0;
  const leaf = node.childState === 'loaded' && shown === 0;
  // A big node shows its first page at once; the count says how many are still on the way.
  const waiting = node.childState === 'loading' && shown === 0;
  const count = node.childTotal
    ? shown < node.childTotal
      ? ` (${shown.toLocaleString()} of ${node.childTotal.toLocaleString()}…)`
      : ` (${node.childTotal.toLocaleString()})`
    : '';
  return (
    <div
      id={`tree-${node.pkid}`}
      role="treeitem"
      aria-level={depth + 1}
      aria-expanded={leaf ? undefined : expanded}
      aria-selected={selected}
      data-path={node.path}
      className={`tree-row${selected ? ' selected' : ''}${active ? ' active' : ''}`}
      style={{ top, paddingLeft: 6 + depth * 16 }}
      onClick={onSelect}
      onDoubleClick={onToggle}
    >
      <span
        className={`twisty${leaf ? ' leaf' : ''}`}
        aria-hidden="true"
        onClick={(event) => {
          event.stopPropagation();
          onToggle();
        }}
      >
        {leaf ? '' : waiting ? '…' : expanded ? '▾' : '▸'}
      </span>
      <span className="tree-name">{node.name}</span>
      <span className="tree-type">
        {node.nodeType}
        {count}
      </span>
    </div>
  );
}

interface KeyHandlers {
  down(): void;
  up(): void;
  home(): void;
  end(): void;
  right(): void;
  left(): void;
  select(): void;
}

/** The WAI-ARIA tree keys; returns false for keys the tree leaves alone. */
function keyAction(key: string, on: KeyHandlers): boolean {
  const map: Record<string, () => void> = {
    ArrowDown: on.down,
    ArrowUp: on.up,
    Home: on.home,
    End: on.end,
    ArrowRight: on.right,
    ArrowLeft: on.left,
    Enter: on.select,
    ' ': on.select,
  };
  const action = map[key];
  if (!action) return false;
  action();
  return true;
}
