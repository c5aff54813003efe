import type { NodeRow } from '../../store/nodes-repo';
import { conflictProblem, type RuleProblem } from './problem';
import type { RulesView } from './rules-view';

/**
 * A hierarchy node is deleted only once it holds nothing (no child node, no resource), and the
 * root never: the problem says what is still there.
 */
export function nodeDeleteProblem(view: RulesView, node: NodeRow): RuleProblem | undefined {
  if (node.parent_pkid === null) return conflictProblem('', 'root-node', 'The root node sys cannot be deleted.');
  const { children, childNames, resources } = view.nodeHoldings(node);
  if (children === 0 && resources.length === 0) return undefined;
  const parts: string[] = [];
  if (children > 0) {
    parts.push(
      `${children} child node${children === 1 ? '' : 's'} (${childNames.join(', ')}${children > childNames.length ? ', ...' : ''})`,
    );
  }
  if (resources.length > 0) {
    const total = resources.reduce((sum, entry) => sum + entry.count, 0);
    const byModel = resources.map((entry) => `${entry.modelType}: ${entry.count}`).join(', ');
    parts.push(`${total} resource${total === 1 ? '' : 's'} (${byModel})`);
  }
  return conflictProblem(
    '',
    'node-not-empty',
    `Hierarchy node ${node.path} still holds ${parts.join(' and ')}; delete or move them first.`,
  );
}
