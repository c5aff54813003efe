import { workstationCall } from './cli-remote';
import type { Service } from './service';
import { mappingPlaces, type MappingPlaces, type PlaceFacts } from './service/mapping/mapping-places';

/**
 * The store's places for `workstation map --write --hierarchy <path>`: the nodes at or below the
 * chosen node, the lines and inventory numbers that tell each node's country, and the countries'
 * codes, read through the API as the local admin, bounded (a mapping needs a sample, not a
 * million numbers).
 */
const PAGE = 2000;
const MOST = 20_000;

interface Listed {
  pagination: { total: number };
  resources: { data: Record<string, unknown>; meta: { hierarchy: string } }[];
}

async function listAll(service: Service, path: string): Promise<Listed['resources']> {
  const found: Listed['resources'] = [];
  for (let skip = 0; skip < MOST; skip += PAGE) {
    const page = await workstationCall<Listed>(service, 'GET', `${path}&skip=${skip}&limit=${PAGE}`);
    found.push(...page.resources);
    if (skip + PAGE >= page.pagination.total) break;
  }
  return found;
}

export async function storePlaces(service: Service, hierarchy: string): Promise<MappingPlaces> {
  const at = encodeURIComponent(hierarchy);
  const nodes = await listAll(service, `/api/data/HierarchyNode/?hierarchy=${at}&traversal=down`);
  const lines = await listAll(service, `/api/relation/LineRelation/?hierarchy=${at}&traversal=down`);
  const numbers = await listAll(service, `/api/data/InternalNumberInventory/?hierarchy=${at}&traversal=up`);
  const countries = await listAll(service, '/api/data/Countries/?hierarchy=sys');
  const facts: PlaceFacts = {
    nodes: nodes.map((node) => ({ name: String(node.data.name), path: `${node.meta.hierarchy}.${String(node.data.name)}` })),
    lines: lines.map((line) => ({ number: String(line.data.pattern ?? ''), path: line.meta.hierarchy })),
    numbers: numbers.map((entry) => ({ number: String(entry.data.internal_number ?? ''), path: entry.meta.hierarchy })),
    countryCodes: countries.map((country) => String(country.data.country_code ?? '')).filter((code) => code !== ''),
  };
  return mappingPlaces(facts);
}
