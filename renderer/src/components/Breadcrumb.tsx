import { useSlice, useStores } from '../store/stores';
import type { TreeNode } from '../store/hierarchy-store';

/** The current node's path; the parts the user may browse select that node. */
export function Breadcrumb() {
  const { hierarchy } = useStores();
  const nodes = useSlice('hierarchy', (s) => s.nodes);
  const selected = useSlice('hierarchy', (s) => s.selected);
  const rootPkid = useSlice('hierarchy', (s) => s.rootPkid);
  const current = selected ? nodes[selected] : undefined;
  if (!current) return null;
  const chain: TreeNode[] = [];
  for (let node: TreeNode | undefined = current; node; node = node.parent ? nodes[node.parent] : undefined) chain.unshift(node);
  const root = rootPkid ? nodes[rootPkid] : undefined;
  const above = root && root.path.includes('.') ? root.path.split('.').slice(0, -1) : [];
  return (
    <ol className="breadcrumb" aria-label="Current node">
      {above.map((name) => (
        <li key={`above-${name}`} className="muted">
          {name}
        </li>
      ))}
      {chain.map((node) => (
        <li key={node.pkid}>
          {node.pkid === current.pkid ? (
            <strong aria-current="location">{node.name}</strong>
          ) : (
            <button type="button" className="link" onClick={() => hierarchy.getState().select(node.pkid)}>
              {node.name}
            </button>
          )}
        </li>
      ))}
      <li className="node-type">{current.nodeType}</li>
    </ol>
  );
}
