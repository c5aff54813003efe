import { isJsonObject, type Json, type JsonObject } from '../api-types';
import { ApiError, badParameter } from '../errors';
import { parseBoolean } from '../list/list-params';
import { search } from '../models/search';
import { jsonBody, type RequestContext } from '../request-context';
import type { SearchDirection } from './search-scope';

/** What a search asks, from a GET's query string or a POST's body (spec endpoint table). */
export interface SearchRequest {
  query: string;
  /** The node to search from, as given (pkid or dot path); null: the caller's own node. */
  hierarchy: string | null;
  direction: SearchDirection;
}

const FLAGS = [
  ['hierarchy_paths', 'up'],
  ['hierarchy_shallow', 'local'],
  ['hierarchy_all', 'all'],
] as const;

const MAX_QUERY = search.fields.query.maxLength ?? 2000;

const invalid = (field: string, message: string): ApiError => new ApiError(400, 'validation-failed', message, [{ field, message }]);

/** A POST body: `{query, hierarchy_*}` as the spec shows it, or wrapped in `data` like other POSTs. */
function postBody(ctx: RequestContext): JsonObject {
  const body: Json | undefined = jsonBody(ctx);
  if (body === undefined) return {};
  if (!isJsonObject(body))
    throw invalid('query', 'The search body must be a JSON object such as {"query": "relation/LineRelation with pattern startswith +44"}.');
  return isJsonObject(body.data) && body.query === undefined ? body.data : body;
}

function flagOf(ctx: RequestContext, body: JsonObject, name: string): boolean {
  const value = body[name];
  if (value === undefined || value === null) return parseBoolean(ctx.query, name, false);
  if (typeof value !== 'boolean') throw invalid(name, `${name} must be true or false, not ${JSON.stringify(value)}.`);
  return value;
}

/** The spec names three flags; more than one set is a contradiction the caller must resolve. */
function directionOf(ctx: RequestContext, body: JsonObject): SearchDirection {
  const set = FLAGS.filter(([name]) => flagOf(ctx, body, name));
  if (set.length > 1) {
    const names = set.map(([name]) => name).join(' and ');
    throw badParameter(`${names} cannot both be true: set one (paths: up, shallow: this node, all: up and down).`, set[1][0]);
  }
  return set.length === 1 ? set[0][1] : 'down';
}

function queryOf(ctx: RequestContext, body: JsonObject): string {
  const value = body.query ?? ctx.query.get('query');
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) {
    throw invalid('query', 'query is required: a text, or a model search such as relation/LineRelation with pattern startswith +44.');
  }
  if (typeof value !== 'string') throw invalid('query', `query must be text, not ${JSON.stringify(value)}.`);
  if (value.length > MAX_QUERY) throw invalid('query', `query is ${value.length} characters long; the limit is ${MAX_QUERY}.`);
  return value;
}

/** Rule 3: filter_hierarchy wins over hierarchy; an empty parameter counts as absent. */
function hierarchyOf(ctx: RequestContext): string | null {
  for (const name of ['filter_hierarchy', 'hierarchy']) {
    const value = ctx.query.get(name);
    if (value !== null && value.trim() !== '') return value;
  }
  return null;
}

export function readSearchRequest(ctx: RequestContext): SearchRequest {
  const body = ctx.method === 'POST' ? postBody(ctx) : {};
  return { query: queryOf(ctx, body), hierarchy: hierarchyOf(ctx), direction: directionOf(ctx, body) };
}
