import { ApiError } from '../errors';

/**
 * Tokens of the search language. Positions are 1-based character offsets into the query as
 * the user typed it, because every error message points the user at one.
 */
export type TokenKind = 'word' | 'string' | 'open' | 'close' | 'end';

export interface Token {
  kind: TokenKind;
  /** A word as typed, a quoted string without its quotes (doubled quotes undone), or '(' / ')'. */
  text: string;
  position: number;
  /** Offset just past the token in the query, so multi-word texts keep their own spacing. */
  end: number;
}

/** A 400 naming the position; the message is repeated in `details` for forms that show field errors. */
export function searchError(position: number, reason: string, code = 'bad-search-query'): ApiError {
  const message = `Search query error at position ${position}: ${reason}`;
  return new ApiError(400, code, message, [{ field: 'query', message }]);
}

const QUOTES = new Set(['"', "'"]);
const isSpace = (char: string): boolean => /\s/.test(char);
const isDelimiter = (char: string): boolean => isSpace(char) || char === '(' || char === ')';

/**
 * A quoted string runs to the next unpaired quote of the same kind; a doubled quote stands for
 * one quote character, as in SQL, so `'O''Brien'` is O'Brien.
 */
function readQuoted(query: string, start: number): Token {
  const quote = query[start];
  let text = '';
  let index = start + 1;
  while (index < query.length) {
    if (query[index] === quote) {
      if (query[index + 1] !== quote) return { kind: 'string', text, position: start + 1, end: index + 1 };
      index += 1;
    }
    text += query[index];
    index += 1;
  }
  throw searchError(start + 1, `the quote ${quote} opened here is never closed; add a closing ${quote}.`);
}

/**
 * A word is anything up to a space or a bracket. A quote inside a word is an ordinary
 * character (O'Brien needs no quoting); only a quote at the start of a token opens a string.
 */
function readWord(query: string, start: number): Token {
  let index = start;
  while (index < query.length && !isDelimiter(query[index])) index += 1;
  return { kind: 'word', text: query.slice(start, index), position: start + 1, end: index };
}

export function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < query.length) {
    const char = query[index];
    if (isSpace(char)) {
      index += 1;
      continue;
    }
    let token: Token;
    if (char === '(' || char === ')') token = { kind: char === '(' ? 'open' : 'close', text: char, position: index + 1, end: index + 1 };
    else if (QUOTES.has(char)) token = readQuoted(query, index);
    else token = readWord(query, index);
    tokens.push(token);
    index = token.end;
  }
  tokens.push({ kind: 'end', text: '', position: query.length + 1, end: query.length });
  return tokens;
}
