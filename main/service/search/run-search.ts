import type { JsonObject } from '../api-types';
import type { Principal } from '../auth/principal';
import { resolveHierarchy } from '../domain/hierarchy';
import type { Store } from '../domain/store';
import { permissionDenied } from '../errors';
import { SEARCH_LIMIT, searchSql, type SearchRow } from './search-compiler';
import type { SearchRequest } from './search-request';
import { callerScope } from './search-scope';

/** Spec Search rule 6: the result's meta says how to export what was found. */
const EXPORT_ACTION = { href: '/api/export/export_data/?url=/api/tool/Search/', method: 'POST' } as const;

/** A row's summary object without the attributes the instance lacks, as summary lists show it. */
function presentOnly(data: string): string {
  // Most rows have every attribute; only a row with a null pays for a parse.
  if (!data.includes('null')) return data;
  const present: JsonObject = {};
  for (const [name, value] of Object.entries(JSON.parse(data) as JsonObject)) if (value !== null) present[name] = value;
  return JSON.stringify(present);
}

/**
 * The result resources, `{data, meta: {model_type, pkid, hierarchy, href}}`, written as text:
 * a search answers up to 1,000 of them, and splicing SQLite's JSON into a template costs a
 * fraction of building objects and stringifying them (each string is still JSON-escaped).
 */
function resourcesJson(store: Store, rows: SearchRow[]): string {
  const quoted = new Map<string, string>();
  const quote = (text: string): string => {
    let json = quoted.get(text);
    if (json === undefined) quoted.set(text, (json = JSON.stringify(text)));
    return json;
  };
  const parts = rows.map(([modelType, pkid, hierarchyPkid, data]) => {
    const meta =
      `"model_type":${quote(modelType)},"pkid":${JSON.stringify(pkid)},` +
      `"hierarchy":${quote(store.nodes.get(hierarchyPkid)?.path ?? '')},"href":${JSON.stringify(`/api/${modelType}/${pkid}/`)}`;
    return `{"data":${presentOnly(data)},"meta":{${meta}}}`;
  });
  return `[${parts.join(',')}]`;
}

/**
 * The hits of a search for a caller: from the named node or, when none is named, from the
 * caller's own node (rule 4), within the caller's reach (rule 5), ordered and capped at
 * SEARCH_LIMIT. Callers that need the instances themselves (exports) start from these.
 */
export function searchRows(store: Store, principal: Principal, request: SearchRequest): SearchRow[] {
  const caller = store.nodes.get(principal.hierarchyPkid);
  if (!caller) throw permissionDenied(`the hierarchy node of ${principal.username} no longer exists.`);
  const node = request.hierarchy === null ? caller : resolveHierarchy(store.nodes, request.hierarchy);
  const scope = callerScope(principal, caller.path, node, request.direction);
  const compiled = searchSql(request.query, scope);
  // Rows as arrays: better-sqlite3 makes them faster than objects, which 1,000 hits notice.
  return store.statement(compiled.sql).raw(true).all(...compiled.params) as SearchRow[];
}

/**
 * Runs a search and returns the answer's JSON text, the result shape of decisions.md:
 * `{pagination, meta: {actions: {export}}, resources: [{data, meta}]}`.
 */
export function runSearch(store: Store, principal: Principal, request: SearchRequest): string {
  const rows = searchRows(store, principal, request);
  const head = JSON.stringify({
    pagination: { skip: 0, limit: SEARCH_LIMIT, total: rows.length, maximum_limit: SEARCH_LIMIT },
    meta: { actions: { export: EXPORT_ACTION } },
  });
  return `${head.slice(0, -1)},"resources":${resourcesJson(store, rows)}}`;
}
