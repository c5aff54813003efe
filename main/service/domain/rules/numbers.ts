import { conflictProblem, type RuleProblem } from './problem';
import type { NumberEntry } from './rules-view';

/**
 * A directory number the internal number inventory holds (at the node or up the tree) must be
 * Available to be given to a line; a number the inventory does not hold may be used
 * (decisions.md, relation/LineRelation). `entry` is what `RulesView.numberEntry` answers: the
 * caller reads it, as it then marks that entry Used.
 */
export function numberProblem(entry: NumberEntry | undefined, pattern: string, field = 'pattern'): RuleProblem | undefined {
  if (!entry || entry.status === 'Available') return undefined;
  if (entry.takenBy !== undefined) {
    return conflictProblem(
      field,
      'duplicate-number',
      `Directory number ${pattern} is already given to a line by ${entry.takenBy}; use each number once.`,
    );
  }
  return conflictProblem(
    field,
    'number-not-available',
    `Directory number ${pattern} is ${entry.status} in the internal number inventory at ${entry.hierarchyPath}; choose an Available number.`,
  );
}
