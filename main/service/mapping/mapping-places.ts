/**
 * What a mapping needs of the store to turn a customer's words into places and numbers: a site
 * named in a column (`Paris`) as the node of that name at or below the chosen node, and the
 * country code of a row's node, from the numbers it already has (a site whose lines are
 * `+3314000...` dials in France, 33; a site with none yet, from the inventory numbers held at it
 * or above it), to make its local numbers E.164.
 */
export interface MappingPlaces {
  /** The path of the node of that name at or below the chosen node; undefined when none or several. */
  nodePath(name: string): string | undefined;
  /** The country code most of the node's numbers start with: its lines' (at or below it), else its inventory's. */
  countryCodeOf(nodePath: string): string | undefined;
}

export interface PlaceFacts {
  /** Nodes at or below the chosen node: name and path. */
  nodes: { name: string; path: string }[];
  /** Directory numbers of lines, with the path of their node. */
  lines: { number: string; path: string }[];
  /** Inventory numbers with the path of the node that holds them. */
  numbers: { number: string; path: string }[];
  /** Known country codes (`33`, `44`, `1`...). */
  countryCodes: string[];
}

export function mappingPlaces(facts: PlaceFacts): MappingPlaces {
  const byName = new Map<string, string[]>();
  for (const node of facts.nodes) {
    const key = node.name.trim().toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), node.path]);
  }
  const codes = [...facts.countryCodes].sort((a, b) => b.length - a.length);
  const codeOf = (number: string): string | undefined => codes.find((code) => number.startsWith(`+${code}`));
  const cache = new Map<string, string | undefined>();
  return {
    nodePath(name) {
      const paths = byName.get(name.trim().toLowerCase());
      return paths?.length === 1 ? paths[0] : undefined;
    },
    countryCodeOf(nodePath) {
      if (cache.has(nodePath)) return cache.get(nodePath);
      const below = (path: string): boolean => path === nodePath || path.startsWith(`${nodePath}.`);
      const above = (path: string): boolean => path === nodePath || nodePath.startsWith(`${path}.`);
      const best =
        mostCommon(
          facts.lines.filter((line) => below(line.path)),
          codeOf,
        ) ??
        mostCommon(
          facts.numbers.filter((entry) => above(entry.path)),
          codeOf,
        );
      cache.set(nodePath, best);
      return best;
    },
  };
}

/** The country code most of these numbers start with, or undefined when none or a tie. */
function mostCommon(entries: { number: string }[], codeOf: (number: string) => string | undefined): string | undefined {
  const tally = new Map<string, number>();
  for (const { number } of entries) {
    const code = codeOf(number);
    if (code) tally.set(code, (tally.get(code) ?? 0) + 1);
  }
  const ranked = [...tally].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0 || (ranked.length > 1 && ranked[0][1] === ranked[1][1])) return undefined;
  return ranked[0][0];
}
