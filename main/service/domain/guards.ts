import { assertPathReach, assertRole, unreachable, type Operation } from '../auth/access';
import type { Principal } from '../auth/principal';
import { throwIfProblem } from './rules/problem';
import { grantProblem } from './rules/users';
import type { JsonObject } from '../api-types';
import { HierarchyNotFound, resolveHierarchy, wouldBeWithin } from './hierarchy';
import type { Store } from './store';
import type { InstanceRecord } from '../store/instances-repo';
import type { NodeRow, NodesRepo } from '../store/nodes-repo';

/**
 * The checks every route makes before it reads or writes: the caller's role allows the
 * operation, and the hierarchy it touches is the caller's node or below (ancestors too for
 * reads with traversal=up). Anything else is 403 Permission Denied, before any change.
 */
/** Who is asking: enough for every check, whether the call came over HTTP or from a sheet row. */
export interface Caller {
  principal: Principal;
  /** Dot path of the caller's node: the top of what it may reach. */
  callerPath: string;
}

/**
 * Reach is checked before the role: a node outside the caller's reach then gets the same answer
 * whatever the operation, the same as a node that does not exist there (decisions.md).
 */
export function guardNode(ctx: Caller, node: NodeRow, operation: Operation, readUp = false): void {
  assertPathReach(ctx.principal, ctx.callerPath, node.path, { readUp });
  assertRole(ctx.principal, operation);
}

/**
 * The node a caller names where no request pipeline stands in between (a bulk-load row): a node
 * that does not exist outside the caller's reach is refused like one that exists there, so a
 * row's outcome never tells which of the caller's sibling sites exist (decisions.md).
 */
export function resolveForCaller(ctx: Caller, nodes: NodesRepo, value: string): NodeRow {
  try {
    return resolveHierarchy(nodes, value);
  } catch (error) {
    if (error instanceof HierarchyNotFound && !wouldBeWithin(error.requested, ctx.callerPath))
      throw unreachable(ctx.principal, ctx.callerPath);
    throw error;
  }
}

/** Where an instance sits for access: a hierarchy node at its own path, the rest at their node. */
export function accessPathOf(store: Store, record: InstanceRecord): string {
  if (record.modelType === 'data/HierarchyNode') return store.nodes.get(record.pkid)?.path ?? record.hierarchyPath;
  return record.hierarchyPath;
}

export function guardInstance(ctx: Caller, store: Store, record: InstanceRecord, operation: Operation, readUp = false): void {
  assertPathReach(ctx.principal, ctx.callerPath, accessPathOf(store, record), { readUp });
  assertRole(ctx.principal, operation);
}

/** Users: nobody makes or raises a user above its own role or outside its subtree. */
export function guardUserData(ctx: Caller, modelType: string, data: JsonObject, node: NodeRow): void {
  if (modelType !== 'data/User') return;
  throwIfProblem(grantProblem(ctx, data, node));
}
