import type { SearchAnswer } from '../contract/resource-api';
import { SEARCH_LIMIT, type CompiledSearch } from './search-compiler';

/** Spec Search rule 6: the result's meta says how to export what was found. */
const EXPORT_ACTION = { href: '/api/export/export_data/?url=/api/tool/Search/', method: 'POST' } as const;

/**
 * The answer's JSON as JSON.stringify writes it, cut around its total (the 0 after "total":)
 * and before the resources' closing `]}`: SQLite writes the count and the hits in between.
 */
const HEAD = JSON.stringify({
  pagination: { skip: 0, limit: SEARCH_LIMIT, total: 0, maximum_limit: SEARCH_LIMIT },
  meta: { actions: { export: EXPORT_ACTION } },
  resources: [],
} satisfies SearchAnswer);
const TOTAL_AT = HEAD.indexOf('"total":0') + '"total":'.length;
const BEFORE_TOTAL = HEAD.slice(0, TOTAL_AT);
const AFTER_TOTAL = HEAD.slice(TOTAL_AT + 1, -']}'.length);
const TAIL = ']}';

/**
 * A hit's summary object without the attributes the instance lacks, as summary lists show it.
 * Most rows have every attribute: only a row whose text holds a null (or "null", LIKE being
 * the cheaper test) is taken apart, and `->` keeps each value's JSON type (true stays true).
 */
const PRESENT_DATA =
  "CASE WHEN s.data NOT LIKE '%null%' THEN s.data " +
  "ELSE (SELECT json_group_object(e.key, s.data -> e.fullkey) FROM json_each(s.data) e WHERE e.type <> 'null') END";

/**
 * One resource, `{data, meta: {model_type, pkid, hierarchy, href}}`, every text JSON-quoted by
 * SQLite. One format() per hit, not a chain of ||: each || copies the growing text again.
 */
const HIT =
  `format('{"data":%s,"meta":{"model_type":%s,"pkid":%s,"hierarchy":%s,"href":%s}}', ${PRESENT_DATA}, ` +
  `json_quote(s.model_type), json_quote(s.pkid), json_quote(ifnull(n.path, '')), json_quote('/api/' || s.model_type || '/' || s.pkid || '/'))`;

/**
 * The statement that writes a search's whole answer, the result shape of decisions.md:
 * `{pagination, meta: {actions: {export}}, resources: [{data, meta}]}`, as one UTF-8 blob.
 *
 * Why in SQL: a search answers up to 1,000 hits (~330 KB). Fetching them as rows makes four
 * JS strings per hit and a template per hit, then encodes the text to UTF-8 again; SQLite
 * splices the same pieces in C and hands over one buffer, which a worker passes to the main
 * thread without a copy. The hits keep the search's order: its ORDER BY and LIMIT sit in the
 * subquery, which is the outer loop of the LEFT JOIN (SQLite never reorders a LEFT JOIN) and
 * feeds group_concat row by row.
 */
export function answerSql(search: CompiledSearch): CompiledSearch {
  return {
    sql:
      `SELECT CAST(? || count(*) || ? || ifnull(group_concat(${HIT}, ','), '') || '${TAIL}' AS BLOB) ` +
      `FROM (${search.sql}) AS s LEFT JOIN nodes n ON n.pkid = s.hierarchy_pkid`,
    // The head's two parts come first: their placeholders precede the search's in the text.
    params: [BEFORE_TOTAL, AFTER_TOTAL, ...search.params],
  };
}
