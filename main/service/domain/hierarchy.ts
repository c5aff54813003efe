import { ApiError } from '../errors';
import type { NodeRow, NodesRepo } from '../store/nodes-repo';

/**
 * No node has that pkid or path. It keeps what was asked for so that the pipeline, which knows
 * the caller, can answer 403 instead of 404 where the node would lie outside the caller's reach
 * (decisions.md: a 404 there would tell which of its siblings' nodes exist).
 */
export class HierarchyNotFound extends ApiError {
  constructor(readonly requested: string) {
    super(404, 'hierarchy-not-found', `Hierarchy ${requested} was not found: check the pkid or dot path.`);
  }
}

/** Resolves a `hierarchy` parameter given as a pkid or as a dot path. */
export function resolveHierarchy(nodes: NodesRepo, value: string | null | undefined): NodeRow {
  if (value === null || value === undefined || value.trim() === '') {
    throw new ApiError(400, 'hierarchy-required', 'The hierarchy parameter is required: give a node pkid or a dot path such as sys.hcs.');
  }
  const node = nodes.get(value) ?? nodes.getByPath(value);
  if (!node) throw new HierarchyNotFound(value);
  return node;
}

/** True when `path` is `ancestor` itself or lies below it. */
export function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}.`);
}

export const nodeHref = (pkid: string): string => `/api/data/HierarchyNode/${pkid}/`;

/**
 * Whether a hierarchy nobody found would lie within the caller's reach. A dot path says where it
 * would be; a pkid says nothing, so only a caller at the root (who reaches everything) is told
 * that an unknown pkid does not exist.
 */
export function wouldBeWithin(requested: string, callerPath: string): boolean {
  return !callerPath.includes('.') || isWithin(requested, callerPath);
}
