import type { ApiResponse } from '../api-types';
import type { RevertAnswer } from '../contract/revert-api';
import { notFound } from '../errors';
import type { RequestContext } from '../request-context';
import { json } from '../responses';
import type { Who } from '../workbooks/staged-workbooks';
import { workbookInfo } from '../workbooks/workbook-views';
import { methodNotAllowed, type WorkstationRouteGroup } from './route-group';

/**
 * `/workstation/transactions/<id>/revert/` (README: Reverting a load; shapes in
 * `../contract/revert-api.ts`). POST builds the revert plan of a finished bulk load as a staged
 * workbook (202, while it is staged and then planned); GET answers the load's reverts, or for a
 * revert's own load the load it reverts. Reach and role are checked by `../revert/reverts.ts`:
 * the load's node within the caller's, and a role that may bulk load.
 */
const whoOf = (ctx: RequestContext): Who => ({ principal: ctx.principal, callerPath: ctx.callerPath });

export const revertRoutes: WorkstationRouteGroup = {
  prefix: 'transactions',
  async handle(deps, ctx, rest): Promise<ApiResponse> {
    const [id, action] = rest;
    if (rest.length !== 2 || action !== 'revert') throw notFound(`No workstation endpoint at ${ctx.path}.`);
    if (ctx.method === 'GET') return json(200, deps.reverts.link(whoOf(ctx), id));
    if (ctx.method !== 'POST') throw methodNotAllowed(ctx, 'GET or POST');
    const started = await deps.reverts.start(whoOf(ctx), id);
    const answer: RevertAnswer = {
      success: true,
      transaction_id: id,
      rows: started.built.rows,
      not_revertable: started.built.unrecorded,
      failed_rows: started.built.failed,
      workbook: workbookInfo(deps, deps.store.workbooks.get(started.record.id) ?? started.record),
    };
    return json(202, answer);
  },
};
