import { isJsonObject, type JsonObject } from '../service/api-types';
import { ApiError } from '../service/errors';

/**
 * The sub-transactions of a remote transaction (a bulk load's rows), whole (`summary=false`: each
 * with its resource's pkid and model type), a page of 2,000 at a time: the transaction list shows
 * top-level transactions only, and names a parent's children with `parent_id`. A remote that does
 * not filter by `parent_id` answers other transactions: then this answers undefined, and the
 * caller reads each child by its id, or pulls whole.
 */
type Get = (path: string, query: Record<string, string>) => Promise<{ status: number; body: unknown }>;

const PAGE = 2000;

export async function childrenOf(get: Get, hierarchy: string, parentId: string, expected: number): Promise<JsonObject[] | undefined> {
  const children: JsonObject[] = [];
  for (let skip = 0; ; skip += PAGE) {
    const answer = await get('/api/tool/Transaction/', {
      format: 'json',
      hierarchy,
      parent_id: parentId,
      summary: 'false',
      skip: String(skip),
      limit: String(PAGE),
    });
    if (answer.status !== 200)
      throw new ApiError(
        502,
        'remote-refused',
        `The remote refused to list the rows of its transaction ${parentId} (HTTP ${answer.status}).`,
      );
    const resources = isJsonObject(answer.body) && Array.isArray(answer.body.resources) ? answer.body.resources.filter(isJsonObject) : [];
    for (const resource of resources) {
      const data = isJsonObject(resource.data) ? resource.data : undefined;
      if (data?.parent_id !== parentId) return undefined;
      children.push(data);
    }
    if (resources.length < PAGE) break;
  }
  return children.length === expected ? children : undefined;
}
