import type { WorkspaceList } from '../contract/workstation-api';
import { json } from '../responses';
import { notFound } from '../errors';
import { mayUse } from './profile-access';
import { methodNotAllowed, type WorkstationRouteGroup } from './route-group';

/** `GET /workstation/workspaces/`: `Local`, then a live workspace per remote profile the caller may use (the top bar's switcher). */
export const workspaceRoutes: WorkstationRouteGroup = {
  prefix: 'workspaces',
  handle(deps, ctx, rest) {
    if (rest.length > 0) throw notFound(`No workstation endpoint at ${ctx.path}.`);
    if (ctx.method !== 'GET') throw methodNotAllowed(ctx, 'GET');
    const live = deps.profiles
      .list()
      .filter((row) => mayUse(deps, ctx, row))
      .map((row) => ({ name: row.name, live: true, base_url: row.base_url, profile_id: row.pkid, home_hierarchy: row.home_hierarchy }));
    const body: WorkspaceList = {
      workspaces: [{ name: 'Local', live: false, base_url: null, profile_id: null, home_hierarchy: null }, ...live],
    };
    return json(200, body);
  },
};
