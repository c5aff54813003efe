import { isWithin } from '../domain/hierarchy';
import { permissionDenied, type ApiError } from '../errors';
import type { NodeRow } from '../store/nodes-repo';
import type { Principal } from './principal';

/**
 * Roles and reach, as decisions.md defines them. A role grants operations; a user's node
 * bounds where: its own node and everything below, plus reading ancestors with traversal=up.
 */
export type Operation = 'read' | 'search' | 'export' | 'create' | 'update' | 'delete' | 'tag' | 'bulkload';

const GRANTS: Record<Principal['role'], readonly Operation[]> = {
  admin: ['read', 'search', 'export', 'create', 'update', 'delete', 'tag', 'bulkload'],
  operator: ['read', 'search', 'export'],
  readonly: ['read', 'search'],
};

const RANK: Record<Principal['role'], number> = { readonly: 0, operator: 1, admin: 2 };

export function roleAllows(role: Principal['role'], operation: Operation): boolean {
  return GRANTS[role].includes(operation);
}

export function assertRole(principal: Principal, operation: Operation): void {
  if (!roleAllows(principal.role, operation)) {
    throw permissionDenied(`the ${principal.role} role of ${principal.username} does not allow ${operation}.`);
  }
}

/** True when `node` is the caller's node or below it. */
export function inReach(callerPath: string, node: NodeRow): boolean {
  return isWithin(node.path, callerPath);
}

/**
 * A request naming a hierarchy must stay in the caller's subtree; reading with traversal=up may
 * also name an ancestor of the caller's node (its resources above, never its siblings').
 */
export function assertPathReach(principal: Principal, callerPath: string, path: string, options: { readUp?: boolean } = {}): void {
  if (isWithin(path, callerPath)) return;
  if (options.readUp && isWithin(callerPath, path)) return;
  throw unreachable(principal, callerPath);
}

/**
 * The one refusal for a hierarchy outside the caller's reach, whether it exists or not. It names
 * only the caller's own node: naming the other would tell the caller it exists, and where.
 */
export function unreachable(principal: Principal, callerPath: string): ApiError {
  return permissionDenied(`${principal.username} works at ${callerPath} and cannot reach that hierarchy: work at ${callerPath} or below.`);
}

export function assertReach(principal: Principal, callerPath: string, node: NodeRow, options: { readUp?: boolean } = {}): void {
  assertPathReach(principal, callerPath, node.path, options);
}

/**
 * A user may only make or change users at or below its node, never with a higher role: the
 * refusal, or undefined when the grant is allowed.
 */
export function grantRefusal(principal: Principal, callerPath: string, role: Principal['role'], node: NodeRow): ApiError | undefined {
  if (RANK[role] > RANK[principal.role])
    return permissionDenied(`${principal.username} is ${principal.role} and cannot give the ${role} role.`);
  if (!isWithin(node.path, callerPath)) return unreachable(principal, callerPath);
  return undefined;
}
