import type { ApiResponse } from '../api-types';
import { notFound } from '../errors';
import type { RequestContext } from '../request-context';
import { modelRoutes } from './model-routes';
import { remoteProfileRoutes } from './remote-profile-routes';
import type { WorkstationDeps, WorkstationRouteGroup } from './route-group';
import { workspaceRoutes } from './workspace-routes';
import { workbookRoutes } from './workbook-routes';
import { viewerRoutes } from './viewer-routes';
import { syncRoutes } from './sync-routes';
import { mappingRoutes } from './mapping-routes';
import { revertRoutes } from './revert-routes';

export type { WorkstationDeps, WorkstationRouteGroup } from './route-group';

/**
 * The workstation's own endpoints, `/workstation/<group>/...` (decisions.md, Workstation
 * endpoints): answered by the local service alone, whatever workspace is live. To add a family
 * (staged workbooks, sync, events...): a file exporting a `WorkstationRouteGroup`, one line here.
 */
const GROUPS: readonly WorkstationRouteGroup[] = [
  remoteProfileRoutes,
  workspaceRoutes,
  workbookRoutes,
  modelRoutes,
  viewerRoutes,
  syncRoutes,
  mappingRoutes,
  revertRoutes,
];

export const WORKSTATION_PREFIX = '/workstation/';

export async function dispatchWorkstation(deps: WorkstationDeps, ctx: RequestContext): Promise<ApiResponse> {
  const [prefix, ...rest] = ctx.path
    .slice(WORKSTATION_PREFIX.length)
    .split('/')
    .filter((segment) => segment !== '');
  const group = GROUPS.find((candidate) => candidate.prefix === prefix);
  if (!group)
    throw notFound(
      `No workstation endpoint at ${ctx.path}: the families are ${GROUPS.map((g) => `/workstation/${g.prefix}/`).join(', ')}.`,
    );
  return group.handle(deps, ctx, rest);
}
