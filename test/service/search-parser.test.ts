import { describe, expect, it } from 'vitest';
import { ApiError } from '../../main/service/errors';
import { parseSearch, type Condition } from '../../main/service/search/search-parser';

/** A condition as a compact string: clauses as `field op [text]`, junctions bracketed. */
function shape(condition: Condition | null): string {
  if (condition === null) return '';
  if (condition.kind === 'clause') return `${condition.field} ${condition.operator} [${condition.text}]`;
  return `(${condition.operands.map(shape).join(` ${condition.kind} `)})`;
}

function where(query: string): string {
  const parsed = parseSearch(query);
  if (parsed.kind !== 'model') throw new Error(`${query} parsed as bare text`);
  return shape(parsed.where);
}

function errorOf(query: string): ApiError {
  try {
    parseSearch(query);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`${query} parsed without an error`);
}

describe('search parser', () => {
  it('binds and tighter than or, and brackets override it', () => {
    expect(where('relation/LineRelation with a is 1 or b is 2 and c is 3')).toBe('(a is [1] or (b is [2] and c is [3]))');
    expect(where('relation/LineRelation with (a is 1 or b is 2) and c is 3')).toBe('((a is [1] or b is [2]) and c is [3])');
    expect(where('relation/LineRelation with ((a is 1))')).toBe('a is [1]');
    expect(where('relation/LineRelation with a is 1 and (b is 2 or (c is 3 and d is 4))')).toBe(
      '(a is [1] and (b is [2] or (c is [3] and d is [4])))',
    );
  });

  it('reads keywords and operators in any case, and keeps the text as typed', () => {
    expect(where('device/cucm/Line WITH pattern StartsWith +44 AnD alertingName LIKE Ann OR usage Equals Device')).toBe(
      '((pattern startswith [+44] and alertingName like [Ann]) or usage equals [Device])',
    );
    const parsed = parseSearch('device/cucm/Line');
    expect(parsed).toEqual({ kind: 'model', modelType: 'device/cucm/Line', position: 1, where: null });
  });

  it('takes quoted texts whole: spaces, keywords, the other quote, doubled quotes', () => {
    expect(where(`relation/LineRelation with alertingName is "Sales and Marketing"`)).toBe('alertingName is [Sales and Marketing]');
    expect(where(`relation/LineRelation with alertingName is 'with or (brackets)'`)).toBe('alertingName is [with or (brackets)]');
    expect(where(`relation/LineRelation with alertingName is 'say "hi"' or alertingName is "O""Neil"`)).toBe(
      '(alertingName is [say "hi"] or alertingName is [O"Neil])',
    );
    expect(where(`relation/LineRelation with alertingName is 'O''Brien'`)).toBe("alertingName is [O'Brien]");
    expect(where(`relation/LineRelation with alertingName is ''`)).toBe('alertingName is []');
  });

  it('takes unquoted words up to and/or or a bracket, with their own spacing', () => {
    expect(where('relation/LineRelation with alertingName is Alice  Martin and usage is Device')).toBe(
      '(alertingName is [Alice  Martin] and usage is [Device])',
    );
    expect(where("relation/LineRelation with (alertingName startswith O'Brien)")).toBe("alertingName startswith [O'Brien]");
  });

  it('records each clause position and reads dot paths as one field', () => {
    const parsed = parseSearch('relation/LineRelation with callForwardAll.destination is +44');
    expect(parsed).toMatchObject({ kind: 'model', where: { kind: 'clause', field: 'callForwardAll.destination', position: 28 } });
  });

  it('takes anything that does not start with a model kind as bare text, as typed', () => {
    expect(parseSearch('  Acme (UK) and more ')).toEqual({ kind: 'text', text: 'Acme (UK) and more' });
    expect(parseSearch('"Paris desk 1"')).toEqual({ kind: 'text', text: 'Paris desk 1' });
    expect(parseSearch('LineRelation/with')).toEqual({ kind: 'text', text: 'LineRelation/with' });
    expect(errorOf(`'Paris' desk`).message).toBe(
      "Search query error at position 9: expected the end of the query after the quoted text at position 1, found 'desk'.",
    );
  });

  it('points every error at its position', () => {
    const cases: [string, number, string][] = [
      [
        'relation/LineRelation with pattern +44',
        36,
        "expected an operator (is, like, equals, contains, startswith, endswith) after 'pattern', found '+44'.",
      ],
      [
        'relation/LineRelation with pattern',
        35,
        "expected an operator (is, like, equals, contains, startswith, endswith) after 'pattern', found the end of the query.",
      ],
      ['relation/LineRelation with alertingName is "Alice', 44, 'the quote " opened here is never closed; add a closing ".'],
      ["relation/LineRelation with alertingName is 'Alice''", 44, "the quote ' opened here is never closed; add a closing '."],
      [
        'relation/LineRelation with (pattern is 1',
        41,
        "expected ')' to close the bracket opened at position 28, found the end of the query.",
      ],
      ['relation/LineRelation with pattern is 1)', 40, "found ')' but no bracket is open here."],
      ['relation/LineRelation with pattern is 1 and', 44, "expected a field name after 'and', found the end of the query."],
      ['relation/LineRelation with pattern is 1 or or usage is x', 44, "expected a field name after 'or', found 'or'."],
      ['relation/LineRelation pattern is 1', 23, "expected 'with' or the end of the query after 'relation/LineRelation', found 'pattern'."],
      ['relation/LineRelation with', 27, "expected a field name after 'with', found the end of the query."],
      ['relation/LineRelation with ()', 29, "expected a field name after '(', found ')'."],
      [
        'relation/LineRelation with pattern is and usage is x',
        39,
        "expected a text to search for after 'is', found 'and'; quote a text that is a keyword.",
      ],
      [
        "relation/LineRelation with pattern is 'a' 'b'",
        43,
        "expected 'and', 'or' or the end of the query, found the quoted text at position 43.",
      ],
      ['relation/LineRelation with pattern-x is 1', 28, "expected a field name after 'with', found 'pattern-x'."],
      ['   ', 1, 'the query is empty; give a text, or a model such as relation/LineRelation.'],
    ];
    for (const [query, position, reason] of cases) {
      const error = errorOf(query);
      expect(error.httpCode, query).toBe(400);
      expect(error.code, query).toBe('bad-search-query');
      expect(error.message, query).toBe(`Search query error at position ${position}: ${reason}`);
      expect(error.details, query).toEqual([{ field: 'query', message: error.message }]);
    }
  });
});
