import type { ApiResponse } from '../api-types';
import { assertRole } from '../auth/access';
import { methodNotAllowed, notFound } from '../errors';
import type { RequestContext } from '../request-context';
import { JSON_TYPE } from '../responses';
import { runSearch } from '../search/run-search';
import { readSearchRequest } from '../search/search-request';
import type { RouteDeps } from './deps';

/** GET and POST /api/tool/Search/: the query in the URL or in the body, the same answer. */
export async function routeSearch(deps: RouteDeps, ctx: RequestContext, rest: string[]): Promise<ApiResponse> {
  if (rest.length > 0) throw notFound(`No resource at ${ctx.path}: search is /api/tool/Search/.`);
  if (ctx.method !== 'GET' && ctx.method !== 'POST') {
    throw methodNotAllowed(ctx, 'GET or POST');
  }
  assertRole(ctx.principal, 'search');
  // The search writes its answer's JSON bytes itself (run-search.ts says why).
  const body = await runSearch(deps.store, ctx.principal, readSearchRequest(ctx), deps.searchPool);
  return { status: 200, headers: { 'content-type': JSON_TYPE }, body };
}
