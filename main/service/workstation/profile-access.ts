import { isWithin } from '../domain/hierarchy';
import type { Store } from '../domain/store';
import { notFound, permissionDenied } from '../errors';
import type { RequestContext } from '../request-context';

/** Who asks: enough of a request's context to judge it, before the whole context is made (live requests). */
export type Asker = Pick<RequestContext, 'principal' | 'callerPath'>;
import type { RemoteProfileRow } from '../store/remote-profiles-repo';
import type { WorkstationDeps } from './route-group';

/**
 * Who may use a remote profile. Its credentials are those of a remote user an admin entered, so
 * working through it lends that user's rights: only local admins may make, change, test or use
 * a profile, and only admins at or above the node of the admin who made it (an admin of one
 * site cannot borrow a provider admin's profile). Operators and readonly users use none.
 */
export function mayUse(deps: { store: Pick<Store, 'nodes'> }, ctx: Asker, row: RemoteProfileRow): boolean {
  if (ctx.principal.role !== 'admin') return false;
  const node = deps.store.nodes.get(row.hierarchy_pkid);
  return node !== undefined && isWithin(node.path, ctx.callerPath);
}

export function assertAdmin(ctx: Asker, what: string): void {
  if (ctx.principal.role !== 'admin') {
    throw permissionDenied(
      `the ${ctx.principal.role} role of ${ctx.principal.username} does not allow ${what}: remote profiles are for admins.`,
    );
  }
}

/** The profile by id or name, if the caller may use it; one 404 whether it exists or not, so other admins' profile names do not leak. */
export function usableProfile(deps: WorkstationDeps, ctx: Asker, idOrName: string): RemoteProfileRow {
  assertAdmin(ctx, 'using remote profiles');
  const row = deps.profiles.find(idOrName);
  if (!row || !mayUse(deps, ctx, row)) {
    throw notFound(
      `No remote profile ${JSON.stringify(idOrName)} among those ${ctx.principal.username} may use: choose one from the list of workspaces.`,
    );
  }
  return row;
}
