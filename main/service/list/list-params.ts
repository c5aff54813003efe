import { ApiError, badParameter } from '../errors';
import { SUBSCRIBER_FILTER_FIELDS } from '../models/subscriber';
import type { ModelDef } from '../models/types';

export type FilterCondition = 'startswith' | 'endswith' | 'equals' | 'contains';
export type Traversal = 'down' | 'up' | 'local';

export interface Filter {
  field: string;
  condition: FilterCondition;
  text: string;
  ignoreCase: boolean;
}

export interface ListParams {
  skip: number;
  limit: number;
  count: boolean;
  orderBy: string;
  direction: 'asc' | 'desc';
  summary: boolean;
  traversal: Traversal;
  filters: Filter[];
  /** Set when a `Range` header chose the page: the answer then carries Content-Range. */
  range: boolean;
}

export const MAX_LIMIT = 2000;
const CONDITIONS: readonly FilterCondition[] = ['startswith', 'endswith', 'equals', 'contains'];

export function parseBoolean(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const value = query.get(name);
  if (value === null || value === '') return fallback;
  const lowered = value.toLowerCase();
  if (lowered === 'true' || lowered === '1') return true;
  if (lowered === 'false' || lowered === '0') return false;
  throw badParameter(`${name} must be true or false, not '${value}'.`, name);
}

/**
 * The query parameters that are flags wherever they appear, on `/api/` and `/workstation/` alike.
 * Each is checked before any route reads it (request-pipeline.ts), so `nowait=2` or
 * `regex=banana` is the same 400 `bad-parameter` on every route, never taken silently as false.
 */
export const FLAG_PARAMS: readonly string[] = [
  'nowait',
  'count',
  'summary',
  'cached',
  'schema',
  'schema_rules',
  'ignore_case',
  'hierarchy_paths',
  'hierarchy_shallow',
  'hierarchy_all',
  'regex',
  'issues',
];

export function checkFlags(query: URLSearchParams): void {
  for (const name of FLAG_PARAMS) {
    for (const value of query.getAll(name)) {
      if (!/^(true|false|1|0)?$/i.test(value)) throw badParameter(`${name} must be true or false, not '${value}'.`, name);
    }
  }
}

function parseInteger(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const value = query.get(name);
  if (value === null || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw badParameter(`${name} must be a whole number from ${min} to ${max}, not '${value}'.`, name);
  }
  return Number(value);
}

function oneOfParam<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[], fallback: T): T {
  const value = query.get(name);
  if (value === null || value === '') return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw badParameter(`${name} must be one of ${allowed.join(', ')}, not '${value}'.`, name);
  }
  return value as T;
}

/** `Range: items=<first>-<last>` (decisions.md); overrides skip and limit. */
export function parseRange(header: string | undefined): { skip: number; limit: number } | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*items\s*=\s*(\d+)\s*-\s*(\d+)\s*$/.exec(header);
  const first = match ? Number(match[1]) : NaN;
  const last = match ? Number(match[2]) : NaN;
  if (!match || last < first || last - first + 1 > MAX_LIMIT) {
    throw new ApiError(400, 'bad-range', `Range must be items=<first>-<last> with at most ${MAX_LIMIT} items, not '${header}'.`);
  }
  return { skip: first, limit: last - first + 1 };
}

export function filterFieldsOf(model: ModelDef): string[] {
  return model.modelType === 'relation/Subscriber' ? [...SUBSCRIBER_FILTER_FIELDS] : model.summaryAttrs;
}

/**
 * Filter sets: the n-th `filter_field`, `filter_condition`, `filter_text` and `ignore_case`
 * form set n. A set using `equals` makes the others be ignored (the spec's rule 3).
 */
export function parseFilters(model: ModelDef, query: URLSearchParams): Filter[] {
  const fields = query.getAll('filter_field');
  const conditions = query.getAll('filter_condition');
  const texts = query.getAll('filter_text');
  const cases = query.getAll('ignore_case');
  // Every condition given is one of the four, with a field or not: one without was ignored, so
  // `filter_condition=anything` was taken (the published description's fuzz run found it).
  const unknown = conditions.find((condition) => condition !== '' && !(CONDITIONS as readonly string[]).includes(condition));
  if (unknown !== undefined)
    throw badParameter(`filter_condition must be one of ${CONDITIONS.join(', ')}, not '${unknown}'.`, 'filter_condition');
  if (fields.length === 0) {
    if (texts.length > 0) throw badParameter('filter_text was given without filter_field.', 'filter_field');
    return [];
  }
  const allowed = filterFieldsOf(model);
  const filters = fields.map((field, index): Filter => {
    if (!allowed.includes(field)) {
      throw badParameter(
        `filter_field '${field}' is not a summary attribute of ${model.modelType}; use one of ${allowed.join(', ')}.`,
        'filter_field',
      );
    }
    const condition = conditions[index] || 'contains';
    if (!(CONDITIONS as readonly string[]).includes(condition)) {
      throw badParameter(`filter_condition must be one of ${CONDITIONS.join(', ')}, not '${condition}'.`, 'filter_condition');
    }
    const text = texts[index];
    if (text === undefined) throw badParameter(`Filter set ${index + 1} (${field}) has no filter_text.`, 'filter_text');
    const ignoreCase = cases[index] === undefined || cases[index] === '' ? true : !/^(false|0)$/i.test(cases[index]);
    return { field, condition: condition as FilterCondition, text, ignoreCase };
  });
  const equals = filters.find((filter) => filter.condition === 'equals');
  return equals ? [equals] : filters;
}

export function parseListParams(model: ModelDef, query: URLSearchParams, rangeHeader: string | undefined): ListParams {
  const isSubscriber = model.modelType === 'relation/Subscriber';
  const range = parseRange(rangeHeader);
  const orderBy = query.get('order_by') || model.summaryAttrs[0];
  if (!model.summaryAttrs.includes(orderBy)) {
    throw badParameter(
      `order_by '${orderBy}' is not a summary attribute of ${model.modelType}; use one of ${model.summaryAttrs.join(', ')}.`,
      'order_by',
    );
  }
  const traversal = oneOfParam<Traversal>(query, 'traversal', ['down', 'up', 'local'], 'down');
  const summary = parseBoolean(query, 'summary', true);
  parseBoolean(query, 'cached', true);
  return {
    skip: range?.skip ?? parseInteger(query, 'skip', 0, 0, Number.MAX_SAFE_INTEGER),
    limit: range?.limit ?? parseInteger(query, 'limit', 50, 1, MAX_LIMIT),
    count: parseBoolean(query, 'count', true),
    orderBy,
    direction: oneOfParam(query, 'direction', ['asc', 'desc'], 'asc'),
    // Subscriber lists (release 11.5.2 on) always summarise and never look up the tree.
    summary: isSubscriber ? true : summary,
    traversal: isSubscriber && traversal === 'up' ? 'down' : traversal,
    filters: parseFilters(model, query),
    range: range !== undefined,
  };
}
