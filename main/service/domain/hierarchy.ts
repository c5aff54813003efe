import { ApiError } from '../errors';
import type { NodeRow, NodesRepo } from '../store/nodes-repo';

/** Resolves a `hierarchy` parameter given as a pkid or as a dot path. */
export function resolveHierarchy(nodes: NodesRepo, value: string | null | undefined): NodeRow {
  if (value === null || value === undefined || value.trim() === '') {
    throw new ApiError(400, 'hierarchy-required', 'The hierarchy parameter is required: give a node pkid or a dot path such as sys.hcs.');
  }
  const node = nodes.get(value) ?? nodes.getByPath(value);
  if (!node) throw new ApiError(404, 'hierarchy-not-found', `Hierarchy ${value} was not found: check the pkid or dot path.`);
  return node;
}

/** True when `path` is `ancestor` itself or lies below it. */
export function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}.`);
}

export const nodeHref = (pkid: string): string => `/api/data/HierarchyNode/${pkid}/`;
