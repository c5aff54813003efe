/**
 * The search grammar of decisions.md, as the query helper writes it:
 * `<type>/<name> with <field> <op> <text>`, clauses joined by `and` / `or`, text quoted when it
 * would otherwise not read as one text.
 */
export const OPERATORS = [
  { value: 'startswith', title: 'starts with' },
  { value: 'contains', title: 'contains' },
  { value: 'endswith', title: 'ends with' },
  { value: 'is', title: 'is (exactly)' },
  { value: 'equals', title: 'equals' },
  { value: 'like', title: 'like (contains)' },
] as const;

export type Joiner = 'and' | 'or';

const KEYWORDS = new Set(['with', 'and', 'or', ...OPERATORS.map((op) => op.value)]);

/**
 * Quotes a text that the lexer would split or read as a keyword; a quote inside is doubled,
 * which the lexer reads as one quote character.
 */
export function quoteText(text: string): string {
  const plain = text !== '' && !/[\s()'"]/.test(text) && !KEYWORDS.has(text.toLowerCase());
  return plain ? text : `"${text.replace(/"/g, '""')}"`;
}

export function clauseText(field: string, operator: string, text: string): string {
  return `${field} ${operator} ${quoteText(text)}`;
}

/** The model a query searches, when it is a model search (`relation/LineRelation with ...`). */
export function modelOfQuery(query: string): string | undefined {
  const match = /^\s*((?:data|relation|device|tool|view)\/\S+)/i.exec(query);
  return match?.[1];
}

/**
 * Adds a clause to the query: joined with `and` / `or` when the query already searches that
 * model, else a new model search (one query searches one model).
 */
export function appendClause(current: string, model: string, clause: string, joiner: Joiner): string {
  const trimmed = current.trim();
  const same = modelOfQuery(trimmed)?.toLowerCase() === model.toLowerCase();
  const withAt = trimmed.search(/\swith\s/i);
  if (!same || withAt < 0) return `${model} with ${clause}`;
  const head = trimmed.slice(0, withAt);
  const where = trimmed.slice(withAt).replace(/^\s+with\s+/i, '');
  // `and` binds tighter than `or`: "a or b" and c means (a or b) and c, so it gets brackets.
  const left = joiner === 'and' && /\sor\s/i.test(where) ? `(${where})` : where;
  return `${head} with ${left} ${joiner} ${clause}`;
}
