import type { Principal } from '../auth/principal';
import { resolveHierarchy } from '../domain/hierarchy';
import type { Store } from '../domain/store';
import { permissionDenied } from '../errors';
import { SEARCH_LIMIT, searchSql, type CompiledSearch, type SearchRow } from './search-compiler';
import { resourcesJson } from './search-answer';
import type { SearchPool } from './search-pool';
import type { SearchRequest } from './search-request';
import { callerScope } from './search-scope';

/** Spec Search rule 6: the result's meta says how to export what was found. */
const EXPORT_ACTION = { href: '/api/export/export_data/?url=/api/tool/Search/', method: 'POST' } as const;

/**
 * The hits of a search for a caller: from the named node or, when none is named, from the
 * caller's own node (rule 4), within the caller's reach (rule 5), ordered and capped at
 * SEARCH_LIMIT. Callers that need the instances themselves (exports) start from these.
 */
export function searchRows(store: Store, principal: Principal, request: SearchRequest): SearchRow[] {
  const compiled = compiledSearch(store, principal, request);
  // Rows as arrays: better-sqlite3 makes them faster than objects, which 1,000 hits notice.
  return store.statement(compiled.sql).raw(true).all(...compiled.params) as SearchRow[];
}

/** The search's SQL for this caller: where it may look is settled here, on the main thread. */
function compiledSearch(store: Store, principal: Principal, request: SearchRequest): CompiledSearch {
  const caller = store.nodes.get(principal.hierarchyPkid);
  if (!caller) throw permissionDenied(`the hierarchy node of ${principal.username} no longer exists.`);
  const node = request.hierarchy === null ? caller : resolveHierarchy(store.nodes, request.hierarchy);
  const scope = callerScope(principal, caller.path, node, request.direction);
  return searchSql(request.query, scope);
}

/**
 * Runs a search and returns the answer's JSON as UTF-8 bytes, the result shape of decisions.md:
 * `{pagination, meta: {actions: {export}}, resources: [{data, meta}]}`.
 */
export async function runSearch(store: Store, principal: Principal, request: SearchRequest, pool?: SearchPool): Promise<Uint8Array> {
  const compiled = compiledSearch(store, principal, request);
  let answer: { bytes: Uint8Array; count: number };
  if (pool?.available) {
    // A worker runs the SQL and writes the hits: a million-row scan never holds the event loop.
    answer = await pool.run(compiled);
  } else {
    const rows = store.statement(compiled.sql).raw(true).all(...compiled.params) as SearchRow[];
    answer = { bytes: Buffer.from(resourcesJson(rows, (pkid) => store.nodes.get(pkid)?.path ?? '')), count: rows.length };
  }
  const head = JSON.stringify({
    pagination: { skip: 0, limit: SEARCH_LIMIT, total: answer.count, maximum_limit: SEARCH_LIMIT },
    meta: { actions: { export: EXPORT_ACTION } },
  });
  // Bytes, not text: up to 1,000 hits are written to the socket as they came from the worker.
  return Buffer.concat([Buffer.from(`${head.slice(0, -1)},"resources":`), answer.bytes, Buffer.from('}')]);
}
