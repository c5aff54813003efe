import type { JsonObject } from '../api-types';
import { nodeDeleteProblem } from '../domain/rules/nodes';
import { grantProblem, passwordProblem } from '../domain/rules/users';
import type { InstanceRecord } from '../store/instances-repo';
import { reportProblem, type RowPlan } from './validate-context';
import { bundleAdd, bundleModify, bundleRemove, lineRelationAdd, lineRelationModify, lineRelationRemove } from './validate-lines';
import type { Target } from './validate-target';

/**
 * Checks of one model's workflow beyond its fields and key: what the transaction would refuse
 * at run time (a number in use, a missing phone, a node that still holds resources, a role
 * given above the caller's), found before anything runs. Models without rules need none.
 */
export interface ModelRules {
  add?(plan: RowPlan, data: JsonObject): void;
  /** `before` is undefined when the target is added by an earlier row of the workbook. */
  modify?(plan: RowPlan, before: InstanceRecord | undefined, data: JsonObject): void;
  remove?(plan: RowPlan, target: Target): void;
}

function mayGrant(plan: RowPlan, data: JsonObject): void {
  const problem = grantProblem(plan.check.caller, data, plan.node);
  if (problem) reportProblem(plan.check, problem);
}

const userRules: ModelRules = {
  add(plan, data) {
    const problem = passwordProblem(data.password);
    if (problem) reportProblem(plan.check, problem);
    mayGrant(plan, data);
  },
  modify(plan, _before, data) {
    mayGrant(plan, data);
  },
};

const nodeRules: ModelRules = {
  add(plan, data) {
    const name = String(data.name ?? '');
    const path = `${plan.node.path}.${name}`;
    const row = { pkid: `pending:${path}`, parent_pkid: plan.node.pkid, name, path, node_type: String(data.node_type ?? '') };
    plan.commits.push(() => plan.check.overlay.addNode(row));
  },
  remove(plan, target) {
    if (target.kind !== 'stored') return;
    const { store, overlay } = plan.check;
    const node = store.nodes.get(target.record.pkid);
    if (!node) return;
    const problem = nodeDeleteProblem(plan.rules, node);
    if (!problem) return;
    // Earlier rows may be the ones that empty it; the load then runs them first.
    if (problem.code === 'node-not-empty' && overlay.anyDeletes())
      reportProblem(plan.check, problem, 'warning', ' (the delete succeeds only if earlier rows of this workbook remove all of them)');
    else reportProblem(plan.check, problem);
  },
};

const phoneRules: ModelRules = {
  add(plan, data) {
    const lines = Array.isArray(data.lines) ? data.lines.length : 0;
    if (lines > 0) plan.commits.push(() => plan.check.overlay.addLines(String(data.name ?? ''), lines));
  },
};

export const MODEL_RULES: Record<string, ModelRules> = {
  'data/User': userRules,
  'data/HierarchyNode': nodeRules,
  'device/cucm/Phone': phoneRules,
  'relation/LineRelation': { add: lineRelationAdd, modify: lineRelationModify, remove: lineRelationRemove },
  'relation/Bundle': { add: bundleAdd, modify: bundleModify, remove: bundleRemove },
};
