import type { Principal } from '../auth/principal';
import { resolveHierarchy } from '../domain/hierarchy';
import type { Store } from '../domain/store';
import { permissionDenied } from '../errors';
import { narrowHere } from '../list/instance-list-sql';
import { answerSql } from './search-answer';
import { searchSql, type CompiledSearch, type SearchPlans, type SearchRow } from './search-compiler';
import type { SearchPool, SearchStatements } from './search-pool';
import type { SearchRequest } from './search-request';
import { callerScope } from './search-scope';

/**
 * The hits of a search for a caller: from the named node or, when none is named, from the
 * caller's own node (rule 4), within the caller's reach (rule 5), ordered and capped at
 * SEARCH_LIMIT. Callers that need the instances themselves (exports) start from these.
 */
export function searchRows(store: Store, principal: Principal, request: SearchRequest): SearchRow[] {
  const plans = compiledSearch(store, principal, request);
  const chosen = pickHere(store, { answer: plans, narrow: plans.narrow && { answer: plans.narrow.search, probe: plans.narrow.probe } });
  // Rows as arrays: better-sqlite3 makes them faster than objects, which 1,000 hits notice.
  return store
    .statement(chosen.sql)
    .raw(true)
    .all(...chosen.params) as SearchRow[];
}

/** The plan of a search run on this thread (exports, and searches without a worker). */
function pickHere(store: Store, statements: SearchStatements): CompiledSearch {
  return statements.narrow && narrowHere(store, statements.narrow.probe) ? statements.narrow.answer : statements.answer;
}

/** The search's SQL for this caller: where it may look is settled here, on the main thread. */
function compiledSearch(store: Store, principal: Principal, request: SearchRequest): SearchPlans {
  const caller = store.nodes.get(principal.hierarchyPkid);
  if (!caller) throw permissionDenied(`the hierarchy node of ${principal.username} no longer exists.`);
  const node = request.hierarchy === null ? caller : resolveHierarchy(store.nodes, request.hierarchy);
  const scope = callerScope(principal, caller.path, node, request.direction);
  return searchSql(request.query, scope);
}

/**
 * Runs a search and returns the answer's JSON as UTF-8 bytes, the result shape of decisions.md:
 * `{pagination, meta: {actions: {export}}, resources: [{data, meta}]}`. SQLite writes all of it
 * (search-answer.ts says why), so the bytes go to the socket as they came from the statement.
 */
export async function runSearch(store: Store, principal: Principal, request: SearchRequest, pool?: SearchPool): Promise<Uint8Array> {
  const plans = compiledSearch(store, principal, request);
  const statements: SearchStatements = {
    answer: answerSql(plans),
    narrow: plans.narrow && { answer: answerSql(plans.narrow.search), probe: plans.narrow.probe },
  };
  // A worker runs it: a million-row scan never holds the event loop.
  if (pool?.available) return pool.run(statements);
  const answer = pickHere(store, statements);
  const [bytes] = store
    .statement(answer.sql)
    .raw(true)
    .get(...answer.params) as [Uint8Array];
  return bytes;
}
