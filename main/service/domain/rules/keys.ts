import type { JsonObject } from '../../api-types';
import type { ModelDef } from '../../models/types';
import type { NodeRow } from '../../store/nodes-repo';
import { businessKeyOf, clashInSight, scopeOf } from '../business-key';
import { conflictProblem, type RuleProblem } from './problem';
import type { RulesView } from './rules-view';
import { quoted } from './text';

/**
 * A business key is free before an instance takes it: the model's own (per node, up the tree
 * or global) and those of the instances a workflow makes on the way (a line relation's device
 * line, a bundle's subscriber, phone and line). The workbook's side also refuses a key an
 * earlier row of the workbook takes.
 */

/**
 * What a key names, for messages, in the words of the form and the sheet's titles (an engineer
 * reads them, not the API's field names): "Line Relation with Directory Number '+33140001050'
 * and Route Partition ''".
 */
export function describeKey(model: ModelDef, data: JsonObject): string {
  return `${model.title} with ${keyValues(model, data)}`;
}

/** The key's fields by title with their values: "Directory Number '+33140001050' and Route Partition ''". */
export function keyValues(model: ModelDef, data: JsonObject): string {
  return model.businessKey.fields
    .map((field) => `${model.fields[field]?.title ?? field} ${quoted(String(data[field] ?? ''))}`)
    .join(' and ');
}

/** What to do about a clash with a stored instance, where the model has more to say than the default. */
const ADVICE: Record<string, string> = {
  'device/cucm/Line': 'a number and partition can be on one line only; pick another number or partition',
};
const DEFAULT_ADVICE = 'change that one instead, or pick another value';

/**
 * The problem of `data` taking its key at `node`, or undefined when the key is free. `key` is
 * `businessKeyOf(model, data, node.pkid)` when the caller has it already; `field` is where the
 * problem is placed (the key's first field unless the caller says otherwise).
 */
export function keyProblem(
  view: RulesView,
  model: ModelDef,
  data: JsonObject,
  node: NodeRow,
  selfPkid: string | null | undefined,
  key: string = businessKeyOf(model, data, node.pkid),
  field: string = model.businessKey.fields[0],
): RuleProblem | undefined {
  const holder = view.keyHolder(model.modelType, key, scopeOf(model), node, selfPkid);
  if (!holder) return undefined;
  const subject = describeKey(model, data);
  if (holder.addedBy !== undefined) {
    return conflictProblem(field, 'duplicate-in-workbook', `${subject} is already added by ${holder.addedBy}; each can be added once.`);
  }
  // A global key can be held at a sibling site: its path is named only where it may be seen.
  const place = clashInSight(view.seenFrom(node), holder.hierarchyPath) ? `at ${holder.hierarchyPath}` : 'elsewhere in the hierarchy';
  return conflictProblem(field, 'duplicate-in-store', `${subject} already exists ${place}; ${ADVICE[model.modelType] ?? DEFAULT_ADVICE}.`);
}
