import { fieldValue, summaryObject } from '../list/instance-source';
import { ApiError } from '../errors';
import { foldAscii } from '../list/list-sql';
import { scopeProbe } from '../list/scope-plan';
import { ALL_MODELS, findModel } from '../models/registry';
import { modelKind, type ModelDef } from '../models/types';
import { searchError } from './search-lexer';
import { resolveField } from './search-fields';
import { parseSearch, type Clause, type Condition, type SearchQuery } from './search-parser';
import { scopeNodeSql, scopeSql, type NodeScope } from './search-scope';

/** decisions.md: at most 1,000 results, and no count beyond them. */
export const SEARCH_LIMIT = 1000;

/** One statement answering a search; its rows are `SearchRow`s, already ordered and capped. */
export interface CompiledSearch {
  sql: string;
  params: unknown[];
}

/**
 * A compiled search; a single model's also has its narrow plan, the same search driven from the
 * scope's nodes, and the probe that tells when that plan is the cheaper (list/scope-plan.ts).
 */
export interface SearchPlans extends CompiledSearch {
  narrow?: { search: CompiledSearch; probe: CompiledSearch };
}

/**
 * A result row, as an array (the columns every statement selects first, in this order):
 * model type, pkid, hierarchy pkid, and the summary attributes as a JSON object in which an
 * attribute the instance lacks is null.
 */
export type SearchRow = [modelType: string, pkid: string, hierarchyPkid: string, data: string];

interface Fragment {
  sql: string;
  params: unknown[];
}

/** The highest code point: `prefix || MAX` bounds every string that starts with `prefix`. */
const MAX_CHAR = '\u{10FFFF}';

/**
 * The exact expression of the per-model partial summary indexes (instance-source.ts), so that
 * a summary attribute's range or equality uses its index; the model type is written as a
 * literal in every query for the same reason (a partial index needs its WHERE implied).
 */
const folded = (model: ModelDef, jsonPath: string): string => `lower(${fieldValue(model, jsonPath)})`;

function searchableModel(modelType: string, position: number): ModelDef {
  const model = findModel(modelType);
  if (!model) {
    const message = `Search query error at position ${position}: ${modelType} is not a model served here.`;
    throw new ApiError(404, 'not-found', message, [{ field: 'query', message }]);
  }
  if (model.storage !== 'instances') {
    throw searchError(position, `${modelType} holds no resources to search; search a data, device or relation model.`);
  }
  return model;
}

function booleanClause(jsonPath: string, clause: Clause): Fragment {
  const value = clause.text.toLowerCase();
  if ((clause.operator !== 'is' && clause.operator !== 'equals') || (value !== 'true' && value !== 'false')) {
    throw searchError(clause.position, `${clause.field} is true or false: use '${clause.field} is true' or '${clause.field} is false'.`);
  }
  // JSON true and false read back from json_extract as 1 and 0.
  return { sql: `json_extract(i.data, '${jsonPath}') = ?`, params: [value === 'true' ? 1 : 0] };
}

/**
 * A text whose JSON encoding is itself: printable ASCII without a quote or a backslash (which
 * JSON escapes) or a slash (which some writers escape).
 */
const ENCODES_AS_ITSELF = /^[\x20-\x7E]+$/;
const ESCAPED_IN_JSON = /["\\/]/;

/**
 * Contains: instr on the folded value, so the text is matched literally. A contains cannot use
 * an index, and parsing each row's JSON is most of its cost; when the text reads the same
 * inside JSON, a LIKE on the raw row text (ASCII case-insensitive, no parse) first discards
 * the rows that cannot match: a row whose field contains the text contains it in its JSON too.
 * A % or _ in the text only widens that LIKE; the instr decides.
 */
function containsSql(target: string, text: string, indexed: boolean): Fragment {
  const exact = { sql: `instr(${target}, ?) > 0`, params: [text] };
  // A summary attribute's folded value is in the model's first summary index: no row to read.
  if (indexed || !ENCODES_AS_ITSELF.test(text) || ESCAPED_IN_JSON.test(text)) return exact;
  return { sql: `i.data LIKE ? AND ${exact.sql}`, params: [`%${text}%`, text] };
}

/** One clause; matching is case-insensitive, on SQLite's ASCII fold like the list filters. */
function clauseSql(model: ModelDef, clause: Clause): Fragment {
  const field = resolveField(model, clause);
  if (field.boolean) return booleanClause(field.jsonPath, clause);
  const target = folded(model, field.jsonPath);
  const text = foldAscii(clause.text);
  switch (clause.operator) {
    case 'is':
    case 'equals':
      return { sql: `${target} = ?`, params: [text] };
    case 'like':
    case 'contains':
      return containsSql(target, text, model.summaryAttrs.includes(field.jsonPath.slice(2)));
    case 'startswith':
      // A range, not a function of the column, so the summary index can seek to it.
      return { sql: `${target} >= ? AND ${target} < ?`, params: [text, text + MAX_CHAR] };
    case 'endswith':
      return text === '' ? { sql: `${target} IS NOT NULL`, params: [] } : { sql: `substr(${target}, ?) = ?`, params: [-text.length, text] };
  }
}

function conditionSql(model: ModelDef, condition: Condition): Fragment {
  if (condition.kind === 'clause') return clauseSql(model, condition);
  const parts = condition.operands.map((operand) => conditionSql(model, operand));
  return {
    sql: parts.map((part) => `(${part.sql})`).join(condition.kind === 'and' ? ' AND ' : ' OR '),
    params: parts.flatMap((part) => part.params),
  };
}

/**
 * One model's rows matching `where`, within the scope. A merged search (bare text) also needs
 * each row's order key as a column; a single model's search orders by the indexed expression
 * itself and does not compute it a second time per row (a quarter of its SQL time on 1,000 hits).
 *
 * `from`: 'index' walks the model's rows (in answer order, when the summary index serves it)
 * and tests each one's node last, so only the rows that match are looked up (search-scope.ts);
 * 'nodes' starts from the scope's nodes and reads their rows by the (model, node) index.
 */
function modelSelect(
  model: ModelDef,
  scope: NodeScope,
  where: Fragment | null,
  withOrderKey: boolean,
  from: 'index' | 'nodes' = 'index',
): Fragment & { orderKey: string } {
  const inScope = from === 'index' ? scopeSql(scope) : scopeNodeSql(scope);
  const orderKey = folded(model, `$.${model.summaryAttrs[0]}`);
  const conditions = [`i.model_type = '${model.modelType}'`, ...(where ? [`(${where.sql})`] : []), inScope.sql];
  const columns = [
    `'${model.modelType}' AS model_type`,
    'i.pkid AS pkid',
    'i.hierarchy_pkid AS hierarchy_pkid',
    `${summaryObject()} AS data`,
    ...(withOrderKey ? [`${orderKey} AS sort_key`, 'i.id AS id'] : []),
  ];
  // CROSS JOIN keeps the nodes as the outer loop: SQLite never reorders it.
  const source = from === 'index' ? 'instances i' : 'nodes sn CROSS JOIN instances i';
  if (from === 'nodes') conditions.push('i.hierarchy_pkid = sn.pkid');
  return {
    sql: `SELECT ${columns.join(', ')} FROM ${source} WHERE ${conditions.join(' AND ')}`,
    params: [...(where?.params ?? []), ...inScope.params],
    orderKey,
  };
}

/** The scope's node pkids as a query, for the probe. */
function scopeNodes(scope: NodeScope): CompiledSearch {
  const nodes = scopeNodeSql(scope);
  return { sql: `SELECT sn.pkid AS pkid FROM nodes sn WHERE ${nodes.sql}`, params: nodes.params };
}

/** The models a bare text searches: data and device models that hold instances. */
export const BARE_TEXT_MODELS: readonly ModelDef[] = ALL_MODELS.filter(
  (model) => model.storage === 'instances' && ['data', 'device'].includes(modelKind(model.modelType)),
).sort((a, b) => (a.modelType < b.modelType ? -1 : 1));

/**
 * Bare text: a prefix of any summary attribute, over every data and device model. Each model
 * is one branch (its type a literal, so its summary indexes serve the prefix ranges); the
 * branches are merged in the search order.
 */
function bareTextSearch(text: string, scope: NodeScope): CompiledSearch {
  const prefix = foldAscii(text);
  const branches = BARE_TEXT_MODELS.map((model) => {
    const ranges = model.summaryAttrs.map((field) => `(${folded(model, `$.${field}`)} >= ? AND ${folded(model, `$.${field}`)} < ?)`);
    const where = { sql: ranges.join(' OR '), params: model.summaryAttrs.flatMap(() => [prefix, prefix + MAX_CHAR]) };
    return modelSelect(model, scope, where, true);
  });
  return {
    sql: `${branches.map((branch) => branch.sql).join(' UNION ALL ')} ORDER BY model_type, sort_key, id LIMIT ${SEARCH_LIMIT}`,
    params: branches.flatMap((branch) => branch.params),
  };
}

/** Compiles a parsed search; every value is a bound parameter, every name comes from the registry. */
export function compileSearch(query: SearchQuery, scope: NodeScope): SearchPlans {
  if (query.kind === 'text') return bareTextSearch(query.text, scope);
  const model = searchableModel(query.modelType, query.position);
  const where = query.where ? conditionSql(model, query.where) : null;
  const ordered = (select: Fragment & { orderKey: string }): CompiledSearch => ({
    sql: `${select.sql} ORDER BY ${select.orderKey}, i.id LIMIT ${SEARCH_LIMIT}`,
    params: select.params,
  });
  return {
    ...ordered(modelSelect(model, scope, where, false)),
    narrow: { search: ordered(modelSelect(model, scope, where, false, 'nodes')), probe: scopeProbe(model.modelType, scopeNodes(scope)) },
  };
}

/** Parse and compile in one step: what the route runs, and what the bench's raw-SQL baseline reuses. */
export function searchSql(query: string, scope: NodeScope): SearchPlans {
  return compileSearch(parseSearch(query), scope);
}
