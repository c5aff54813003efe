import { searchError, tokenize, type Token } from './search-lexer';

/**
 * The search language of decisions.md, parsed by recursive descent into an AST that keeps the
 * positions the compiler needs for its own errors (unknown model, unknown field):
 *
 *   query   := model ('with' or)? | bare text
 *   or      := and ('or' and)*          -- and binds tighter than or
 *   and     := primary ('and' primary)*
 *   primary := '(' or ')' | field op text
 *   text    := quoted string | words up to and/or/brackets
 *
 * Keywords are case-insensitive. The parser knows nothing of the model registry.
 */
export const OPERATORS = ['is', 'like', 'equals', 'contains', 'startswith', 'endswith'] as const;
export type SearchOperator = (typeof OPERATORS)[number];

export interface Clause {
  kind: 'clause';
  /** A field name, or a dot path into an object field (callForwardAll.destination). */
  field: string;
  position: number;
  operator: SearchOperator;
  text: string;
}

export interface Junction {
  kind: 'and' | 'or';
  operands: Condition[];
}

export type Condition = Clause | Junction;

export type SearchQuery = { kind: 'model'; modelType: string; position: number; where: Condition | null } | { kind: 'text'; text: string };

/** Only these words start a model path; anything else is bare text (a number, a name). */
const MODEL_PATH = /^(data|relation|device|tool|view)\//;
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const OPERATOR_LIST = OPERATORS.join(', ');

const isKeyword = (token: Token, keyword: string): boolean => token.kind === 'word' && token.text.toLowerCase() === keyword;
const isJoiner = (token: Token): boolean => isKeyword(token, 'and') || isKeyword(token, 'or');

/** How a token reads in a message: the end is not a quoted empty string. */
function describe(token: Token): string {
  if (token.kind === 'end') return 'the end of the query';
  return token.kind === 'string' ? `the quoted text at position ${token.position}` : `'${token.text}'`;
}

class Parser {
  private index = 0;

  constructor(
    private readonly query: string,
    private readonly tokens: Token[],
  ) {}

  private peek(): Token {
    return this.tokens[this.index];
  }

  private next(): Token {
    const token = this.tokens[this.index];
    if (token.kind !== 'end') this.index += 1;
    return token;
  }

  /** The token just consumed, named in "expected ... after X" messages. */
  private previous(): string {
    const token = this.tokens[this.index - 1];
    return token.kind === 'string' ? `the quoted text at position ${token.position}` : `'${token.text}'`;
  }

  parseModel(): SearchQuery {
    const model = this.next();
    if (this.peek().kind === 'end') return { kind: 'model', modelType: model.text, position: model.position, where: null };
    if (!isKeyword(this.peek(), 'with')) {
      throw searchError(
        this.peek().position,
        `expected 'with' or the end of the query after '${model.text}', found ${describe(this.peek())}.`,
      );
    }
    this.next();
    const where = this.parseOr();
    const rest = this.peek();
    if (rest.kind === 'close') throw searchError(rest.position, "found ')' but no bracket is open here.");
    if (rest.kind !== 'end') throw searchError(rest.position, `expected 'and', 'or' or the end of the query, found ${describe(rest)}.`);
    return { kind: 'model', modelType: model.text, position: model.position, where };
  }

  private parseOr(): Condition {
    const operands = [this.parseAnd()];
    while (isKeyword(this.peek(), 'or')) {
      this.next();
      operands.push(this.parseAnd());
    }
    return operands.length === 1 ? operands[0] : { kind: 'or', operands };
  }

  private parseAnd(): Condition {
    const operands = [this.parsePrimary()];
    while (isKeyword(this.peek(), 'and')) {
      this.next();
      operands.push(this.parsePrimary());
    }
    return operands.length === 1 ? operands[0] : { kind: 'and', operands };
  }

  private parsePrimary(): Condition {
    if (this.peek().kind !== 'open') return this.parseClause();
    const open = this.next();
    const inner = this.parseOr();
    const close = this.peek();
    if (close.kind !== 'close') {
      throw searchError(close.position, `expected ')' to close the bracket opened at position ${open.position}, found ${describe(close)}.`);
    }
    this.next();
    return inner;
  }

  private parseClause(): Clause {
    const field = this.peek();
    if (field.kind !== 'word' || isJoiner(field) || !FIELD_PATH.test(field.text)) {
      throw searchError(field.position, `expected a field name after ${this.previous()}, found ${describe(field)}.`);
    }
    this.next();
    const operator = this.peek();
    const name = operator.kind === 'word' ? operator.text.toLowerCase() : '';
    if (!(OPERATORS as readonly string[]).includes(name)) {
      throw searchError(operator.position, `expected an operator (${OPERATOR_LIST}) after '${field.text}', found ${describe(operator)}.`);
    }
    this.next();
    return { kind: 'clause', field: field.text, position: field.position, operator: name as SearchOperator, text: this.parseText() };
  }

  /** A quoted string, or unquoted words (with the spacing typed) up to and/or or a bracket. */
  private parseText(): string {
    const first = this.peek();
    if (first.kind === 'string') return this.next().text;
    if (first.kind !== 'word' || isJoiner(first)) {
      throw searchError(
        first.position,
        `expected a text to search for after ${this.previous()}, found ${describe(first)}; quote a text that is a keyword.`,
      );
    }
    let last = this.next();
    while (this.peek().kind === 'word' && !isJoiner(this.peek())) last = this.next();
    return this.query.slice(first.position - 1, last.end);
  }
}

/**
 * Bare text is taken as typed (brackets and inner quotes included), so that a name such as
 * `Acme (UK)` needs no quoting; a text that starts with a quote must be one quoted string.
 */
function bareText(query: string, tokens: Token[]): SearchQuery {
  const first = tokens[0];
  if (first.kind !== 'string') return { kind: 'text', text: query.trim() };
  if (tokens[1].kind !== 'end') {
    throw searchError(
      tokens[1].position,
      `expected the end of the query after the quoted text at position ${first.position}, found ${describe(tokens[1])}.`,
    );
  }
  if (first.text === '') throw searchError(first.position, 'the quoted text is empty; give a text to search for.');
  return { kind: 'text', text: first.text };
}

export function parseSearch(query: string): SearchQuery {
  const tokens = tokenize(query);
  const first = tokens[0];
  if (first.kind === 'end') throw searchError(1, 'the query is empty; give a text, or a model such as relation/LineRelation.');
  if (first.kind === 'word' && MODEL_PATH.test(first.text)) return new Parser(query, tokens).parseModel();
  return bareText(query, tokens);
}
