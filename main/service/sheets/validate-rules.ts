import type { JsonObject } from '../api-types';
import { assertMayGrant } from '../auth/access';
import type { Principal } from '../auth/principal';
import { ApiError } from '../errors';
import type { InstanceRecord } from '../store/instances-repo';
import { report, type RowPlan } from './validate-context';
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

const missing = (value: unknown): boolean => value === undefined || value === null || value === '';

function mayGrant(plan: RowPlan, data: JsonObject): void {
  const { principal, callerPath } = plan.check.caller;
  const role = (typeof data.role === 'string' ? data.role : 'readonly') as Principal['role'];
  try {
    assertMayGrant(principal, callerPath, role, plan.node);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    report(plan.check, 'role', 'error', 'permission-denied', error.message);
  }
}

const userRules: ModelRules = {
  add(plan, data) {
    if (missing(data.password)) report(plan.check, 'password', 'error', 'required', 'Password (password) is required for a new user');
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
    const children = store.nodes.countChildren(target.record.pkid);
    const held = store.instances.countByModelAt(target.record.pkid).reduce((sum, entry) => sum + entry.count, 0);
    if (children + held === 0) return;
    const path = store.nodes.get(target.record.pkid)?.path ?? String(target.record.data.name);
    const holds = `${path} still holds ${children} child node${children === 1 ? '' : 's'} and ${held} resource${held === 1 ? '' : 's'}`;
    // Earlier rows may be the ones that empty it; the load then runs them first.
    if (overlay.anyDeletes())
      report(
        plan.check,
        '',
        'warning',
        'node-not-empty',
        `${holds}: the delete succeeds only if earlier rows of this workbook remove all of them`,
      );
    else report(plan.check, '', 'error', 'node-not-empty', `${holds}: delete them first`);
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
