import type { Json } from '../api-types';

/**
 * The macro language of Configuration Templates, parsed before anything is evaluated so that a
 * typo is reported as such (with the macro's text) rather than as a strange value. See README.md.
 */
export type RefRoot = 'input' | 'self' | 'macro' | 'item' | 'index';

export type Expr =
  { kind: 'literal'; value: Json } | { kind: 'ref'; root: RefRoot; path: string[] } | { kind: 'call'; name: string; args: Expr[] };

/** One `{{ ... }}` of a text: its inner text (for messages) and what it means. */
export interface MacroPart {
  source: string;
  expr: Expr;
}

export type TextPart = string | MacroPart;

/** Anything wrong with a macro; the expander adds the field and the macro's text to the message. */
export class MacroProblem extends Error {}

const ROOTS: readonly RefRoot[] = ['input', 'self', 'macro', 'item', 'index'];
const SEGMENT = /^[A-Za-z0-9_-]+$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

export const hasMacro = (text: string): boolean => text.includes('{{');

/** Splits a text into literal pieces and parsed macros, in order. */
export function parseText(text: string, knownFunction: (name: string) => boolean): TextPart[] {
  const parts: TextPart[] = [];
  let rest = text;
  for (let open = rest.indexOf('{{'); open >= 0; open = rest.indexOf('{{')) {
    const close = rest.indexOf('}}', open + 2);
    if (close < 0) throw new MacroProblem(`'{{' at "${rest.slice(open, open + 30)}" has no closing '}}'`);
    if (open > 0) parts.push(rest.slice(0, open));
    const source = rest.slice(open + 2, close).trim();
    try {
      parts.push({ source, expr: parseExpression(source, knownFunction) });
    } catch (error) {
      if (error instanceof MacroProblem) throw new MacroProblem(`{{ ${source} }}: ${error.message}`);
      throw error;
    }
    rest = rest.slice(close + 2);
  }
  if (rest !== '') parts.push(rest);
  return parts;
}

/** Brackets carry their own character as value, so every token reads the same way. */
interface Token {
  type: 'word' | 'string' | '(' | ')';
  value: string;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const char = source[at];
    if (/\s/.test(char)) at += 1;
    else if (char === '(' || char === ')') {
      tokens.push({ type: char, value: char });
      at += 1;
    } else if (char === '"' || char === "'") at = readString(source, at, tokens);
    else {
      const end = source.slice(at).search(/[\s()"']/);
      const word = end < 0 ? source.slice(at) : source.slice(at, at + end);
      tokens.push({ type: 'word', value: word });
      at += word.length;
    }
  }
  return tokens;
}

/** A quoted literal; a backslash takes the next character as it is (\" or \\). */
function readString(source: string, start: number, tokens: Token[]): number {
  const quote = source[start];
  let value = '';
  for (let at = start + 1; at < source.length; at += 1) {
    const char = source[at];
    if (char === quote) {
      tokens.push({ type: 'string', value });
      return at + 1;
    }
    if (char === '\\' && at + 1 < source.length) at += 1;
    value += source[at];
  }
  throw new MacroProblem(`the text starting ${quote}${value.slice(0, 20)} has no closing ${quote}`);
}

class Parser {
  private at = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly knownFunction: (name: string) => boolean,
  ) {}

  /** A whole macro, or the inside of ( ): a function call with its arguments, or one value. */
  expression(): Expr {
    const first = this.tokens[this.at];
    if (first?.type === 'word' && first.value.startsWith('fn.')) {
      this.at += 1;
      const name = first.value.slice(3);
      if (!this.knownFunction(name)) throw new MacroProblem(`fn.${name} is not a function (see the templates README)`);
      const args: Expr[] = [];
      while (this.at < this.tokens.length && this.tokens[this.at].type !== ')') args.push(this.primary());
      return { kind: 'call', name, args };
    }
    return this.primary();
  }

  primary(): Expr {
    const token = this.tokens[this.at];
    this.at += 1;
    if (!token) throw new MacroProblem('a value is missing');
    if (token.type === 'string') return { kind: 'literal', value: token.value };
    if (token.type === ')') throw new MacroProblem("')' has no matching '('");
    if (token.type === '(') {
      const inner = this.expression();
      if (this.tokens[this.at]?.type !== ')') throw new MacroProblem("'(' has no matching ')'");
      this.at += 1;
      return inner;
    }
    return wordExpr(token.value);
  }

  done(): boolean {
    return this.at >= this.tokens.length;
  }
}

function wordExpr(word: string): Expr {
  if (NUMBER.test(word)) return { kind: 'literal', value: Number(word) };
  if (word === 'true' || word === 'false') return { kind: 'literal', value: word === 'true' };
  if (word === 'null') return { kind: 'literal', value: null };
  if (word.startsWith('fn.')) throw new MacroProblem(`put ( ) around ${word} and its arguments when it is an argument`);
  return parseRef(word);
}

function parseRef(word: string): Expr {
  const [root, ...path] = word.split('.');
  if (!(ROOTS as readonly string[]).includes(root)) {
    throw new MacroProblem(`${word} is not a macro: use input.<field>, self.<field>, macro.<name>, item, index or fn.<function>`);
  }
  if (path.some((segment) => !SEGMENT.test(segment))) throw new MacroProblem(`${word} is not a valid path`);
  const ref = root as RefRoot;
  if (ref === 'index' && path.length > 0) throw new MacroProblem('index takes no path');
  if (ref === 'macro' && path.length !== 1) throw new MacroProblem(`${word}: write macro.<name>`);
  if ((ref === 'input' || ref === 'self') && path.length === 0) throw new MacroProblem(`${word}: name a field, e.g. ${ref}.pattern`);
  return { kind: 'ref', root: ref, path };
}

export function parseExpression(source: string, knownFunction: (name: string) => boolean): Expr {
  if (source === '') throw new MacroProblem('the macro is empty');
  const parser = new Parser(tokenize(source), knownFunction);
  const expr = parser.expression();
  if (!parser.done()) throw new MacroProblem('unexpected text after the value; call a function to combine values');
  return expr;
}
