import { blockPrefix } from './line-patterns';

/**
 * The searches of the bench, in one place so the HTTP scenario, the raw-SQL baseline and the
 * sanity check run exactly the same queries: what a field engineer types to find a number by
 * its first digits (a prefix of the directory number, whose summary index serves it) and a
 * person by name (a contains, which no index serves), over the customer's 1,000,000 lines; and
 * the same person search at a small site of the same store.
 */
export interface SearchKind {
  id: 'search-startswith' | 'search-like' | 'search-like-small-site';
  title: string;
  /**
   * Where it searches from: the bench customer (1,000,000 lines), or the small site of another
   * customer (seed-lines.ts), whose search the issue sets no target for and is reported for scale.
   */
  at: 'customer' | 'small site';
  /** Rotated by every client, so no single answer stays hot in a cache. */
  queries: string[];
  /** What each hit of a query must show (checked before timing). */
  matches(query: string, data: { pattern?: string; alertingName?: string }): boolean;
}

/** Last names of the seeded lines (line-patterns.ts): each is in 1 alertingName of 11. */
const NAMES = ['Martin', 'Smith', 'Dubois', 'Jones'];

export function searchKinds(prefixCount: number): SearchKind[] {
  const prefixes = Array.from({ length: prefixCount }, (_, residue) => blockPrefix(residue));
  const prefixOf = (query: string): string => query.slice(query.lastIndexOf(' ') + 1);
  const likeQueries = NAMES.map((name) => `relation/LineRelation with alertingName like ${name}`);
  const likeMatches: SearchKind['matches'] = (query, data) =>
    (data.alertingName ?? '').toLowerCase().includes(prefixOf(query).toLowerCase());
  return [
    {
      id: 'search-startswith',
      title: 'search pattern startswith 0.1%',
      at: 'customer',
      queries: prefixes.map((prefix) => `relation/LineRelation with pattern startswith ${prefix}`),
      matches: (query, data) => (data.pattern ?? '').startsWith(prefixOf(query)),
    },
    {
      id: 'search-like',
      title: 'search alertingName like (1 in 11)',
      at: 'customer',
      queries: likeQueries,
      matches: likeMatches,
    },
    {
      id: 'search-like-small-site',
      title: 'search alertingName like, 132-line site',
      at: 'small site',
      queries: likeQueries,
      matches: likeMatches,
    },
  ];
}

export const searchPath = (hierarchyPath: string, query: string): string =>
  `/api/tool/Search/?${new URLSearchParams({ format: 'json', hierarchy: hierarchyPath, query }).toString()}`;
