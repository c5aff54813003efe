import type { JsonObject } from '../api-types';
import { businessKeyOf } from '../domain/business-key';
import { keyProblem } from '../domain/rules/keys';
import type { ModelDef } from '../models/types';
import { reportProblem, type RowPlan } from './validate-context';

/**
 * Business keys a row would take: the model's own, and those of the instances its workflow
 * makes on the way (a line relation's device line, a bundle's subscriber and phone), each
 * checked by the rule the workflow runs (domain/rules/keys.ts) over the overlay. A key taken by
 * an earlier row is reported on the second row. A free key is recorded in the overlay once the
 * row ends clean.
 *
 * Answers true when the key is taken (the problem reported at `field`, the key's first field
 * unless given).
 */
export function keyTaken(
  plan: RowPlan,
  model: ModelDef,
  data: JsonObject,
  selfPkid?: string,
  field?: string,
  key: string = businessKeyOf(model, data, plan.node.pkid),
): boolean {
  const { check, node } = plan;
  const problem = keyProblem(plan.rules, model, data, node, selfPkid, key, field);
  if (problem) {
    reportProblem(check, problem);
    return true;
  }
  plan.commits.push(() => check.overlay.addKey(model.modelType, key, node.path, check.ref));
  return false;
}
