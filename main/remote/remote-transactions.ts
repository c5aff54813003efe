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
/**
 * Pages asked for at once. The parent names how many children it has, so every page is known
 * before the first answer; two in flight keep the remote producing one while this side parses
 * the other (a page of a bulk load's rows with their logs is about 7 MB of JSON). A 10,500-row
 * push read its 6 pages in 1.2 s one after the other.
 */
const PAGES_IN_FLIGHT = 2;

export async function childrenOf(get: Get, hierarchy: string, parentId: string, expected: number): Promise<JsonObject[] | undefined> {
  const page = async (skip: number): Promise<JsonObject[] | undefined> => {
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
    const children: JsonObject[] = [];
    for (const resource of resources) {
      const data = isJsonObject(resource.data) ? resource.data : undefined;
      if (data?.parent_id !== parentId) return undefined;
      children.push(data);
    }
    return children;
  };
  // One page past the children named, so that a remote holding more than its parent says is seen.
  const skips = Array.from({ length: Math.floor(expected / PAGE) + 1 }, (_, at) => at * PAGE);
  const pages: (JsonObject[] | undefined)[] = [];
  for (let at = 0; at < skips.length; at += PAGES_IN_FLIGHT) {
    pages.push(...(await Promise.all(skips.slice(at, at + PAGES_IN_FLIGHT).map(page))));
  }
  if (pages.some((children) => children === undefined)) return undefined;
  const children = pages.flatMap((found) => found ?? []);
  return children.length === expected ? children : undefined;
}
