import type { ApiResponse } from '../api-types';
import type { WhoAmI } from '../contract/resource-api';
import { methodNotAllowed } from '../errors';
import type { RequestContext } from '../request-context';
import { json } from '../responses';
import type { RouteDeps } from './deps';

/**
 * `GET /api/whoami/`: who the caller is, as the UI needs it to root its tree and show the
 * signed-in user. The spec has no such call; it is the local service's own, and reveals nothing
 * the caller could not already read about itself.
 */
export function whoAmI(deps: RouteDeps, ctx: RequestContext): ApiResponse {
  if (ctx.method !== 'GET') throw methodNotAllowed(ctx, 'GET');
  const { principal } = ctx;
  return json(200, {
    username: principal.username,
    role: principal.role,
    hierarchy: ctx.callerPath,
    hierarchy_pkid: principal.hierarchyPkid,
    workspace: deps.workspace,
    release: deps.release,
  } satisfies WhoAmI);
}
