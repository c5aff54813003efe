import { describe, expect, it } from 'vitest';
import { appendClause, clauseText, modelOfQuery, quoteText } from '../../renderer/src/views/search/query-builder';

describe('search query helper', () => {
  it('quotes a text only when the grammar needs it', () => {
    expect(quoteText('+33')).toBe('+33');
    expect(quoteText('Alice Martin')).toBe('"Alice Martin"');
    expect(quoteText('and')).toBe('"and"');
    expect(quoteText('StartsWith')).toBe('"StartsWith"');
    expect(quoteText('say "hi"')).toBe('"say ""hi"""');
    expect(quoteText('(x)')).toBe('"(x)"');
  });

  it('starts a model search, then joins clauses of the same model with and / or', () => {
    const first = appendClause('', 'relation/LineRelation', clauseText('pattern', 'startswith', '+33'), 'and');
    expect(first).toBe('relation/LineRelation with pattern startswith +33');
    const second = appendClause(first, 'relation/LineRelation', clauseText('alertingName', 'like', 'Martin'), 'or');
    expect(second).toBe('relation/LineRelation with pattern startswith +33 or alertingName like Martin');
    // `and` binds tighter than `or`: the existing alternatives are bracketed so the new clause applies to both.
    const third = appendClause(second, 'relation/LineRelation', clauseText('usage', 'is', 'Device'), 'and');
    expect(third).toBe('relation/LineRelation with (pattern startswith +33 or alertingName like Martin) and usage is Device');
  });

  it('replaces a bare text or another model’s search, since a query searches one model', () => {
    expect(appendClause('Paris', 'data/HierarchyNode', 'name is Paris', 'and')).toBe('data/HierarchyNode with name is Paris');
    expect(appendClause('relation/LineRelation with pattern is 1', 'data/User', 'username is bob', 'and')).toBe(
      'data/User with username is bob',
    );
    expect(modelOfQuery('  Relation/LineRelation with x is y')).toBe('Relation/LineRelation');
    expect(modelOfQuery('Paris')).toBeUndefined();
  });
});
