import type { ApiResponse } from '../api-types';
import { ApiError } from '../errors';
import type { RequestContext } from '../request-context';
import type { RouteDeps } from './deps';

/** GET and POST /api/tool/Search/. STUB until search is implemented. */
export async function routeSearch(_deps: RouteDeps, _ctx: RequestContext, _rest: string[]): Promise<ApiResponse> {
  throw new ApiError(404, 'not-found', 'Search is not available yet.');
}
