import type { NodeRow } from '../../store/nodes-repo';
import { conflictProblem, type RuleProblem } from './problem';
import { quoted } from './text';
import type { PhoneEntry } from './rules-view';

/** The most lines a phone takes. */
export const MAX_LINES = 24;

/**
 * A line goes on a phone that exists on the line's branch of the tree (its node, above or
 * below it) and holds fewer than MAX_LINES lines. `phone` is what `RulesView.phoneOnBranch`
 * answers: the caller reads it, as it then puts the line on that phone.
 */
export function phoneProblem(
  phone: PhoneEntry | undefined,
  node: NodeRow,
  name: string,
  field = 'summary_device',
): RuleProblem | undefined {
  if (!phone) {
    return {
      field,
      code: 'device-not-found',
      message: `Device ${quoted(name)} was not found at ${node.path}, above or below it: add the phone first or correct the device name.`,
      httpCode: 404,
      apiCode: 'not-found',
    };
  }
  if (phone.lines >= MAX_LINES) {
    return conflictProblem(
      field,
      'device-full',
      `Device ${quoted(name)} already has ${MAX_LINES} lines, the most a phone takes: put this line on another phone.`,
    );
  }
  return undefined;
}
