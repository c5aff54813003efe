import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './api-client';
import { cleanupServers, startServe, tempDataDir, type ServeProcess } from './serve-process';

/** `serve --seed demo`: the demo world of decisions.md, loaded once and never twice. */
const CUSTOMER = 'sys.hcs.Telco.Acme';
const SITES = ['Paris', 'London'];

let dataDir: string;
let server: ServeProcess;
let api: ApiClient;

beforeAll(async () => {
  dataDir = tempDataDir();
  server = await startServe({ dataDir, seed: 'demo' });
  api = new ApiClient(server.url);
});
afterAll(cleanupServers);

interface NodeData {
  name: string;
  node_type: string;
}

/** Every count a duplicate seed would change. */
async function worldCounts(client: ApiClient): Promise<Record<string, number>> {
  const models = [
    'data/HierarchyNode',
    'data/Countries',
    'data/InternalNumberInventory',
    'data/ConfigurationTemplate',
    'data/FieldDisplayPolicy',
    'device/cucm/Phone',
    'device/cucm/Line',
    'relation/LineRelation',
    'relation/Subscriber',
  ];
  const counts: Record<string, number> = {};
  for (const model of models) counts[model] = await client.total(model, 'sys');
  counts['Used numbers'] = await client.total(
    'data/InternalNumberInventory',
    CUSTOMER,
    '&filter_field=status&filter_condition=equals&filter_text=Used',
  );
  return counts;
}

describe('--seed demo', () => {
  it('builds the tree sys > hcs > Telco > Acme > Paris, London', async () => {
    const nodes = await api.listAll<NodeData>('data/HierarchyNode', 'sys');
    for (const site of SITES) {
      // A site's dot path resolves as a hierarchy.
      const answer = await api.get(`/api/data/HierarchyNode/?hierarchy=${encodeURIComponent(`${CUSTOMER}.${site}`)}`);
      expect(answer.status).toBe(200);
    }
    const children = await api.listAll<NodeData>('data/HierarchyNode', CUSTOMER);
    const sites = children.filter((node) => node.data.node_type === 'Site').map((node) => node.data.name);
    expect(sites.sort()).toEqual([...SITES].sort());
    const names = nodes.map((node) => node.data.name);
    expect(names).toEqual(expect.arrayContaining(['hcs', 'Telco', 'Acme', ...SITES]));
    expect(nodes.find((node) => node.data.name === 'Acme')?.data.node_type).toBe('Customer');
  });

  it.each(SITES)('has 20 line relations, 10 phones and 10 subscribers at %s', async (site) => {
    const hierarchy = `${CUSTOMER}.${site}`;
    expect(await api.total('relation/LineRelation', hierarchy)).toBe(20);
    expect(await api.total('device/cucm/Phone', hierarchy)).toBe(10);
    expect(await api.total('relation/Subscriber', hierarchy)).toBe(10);
    // Each relation's device line exists on the device side.
    expect(await api.total('device/cucm/Line', hierarchy)).toBe(20);
  });

  it('holds 200 numbers at the customer, Used exactly where a line relation uses them', async () => {
    expect(await api.total('data/InternalNumberInventory', CUSTOMER)).toBe(200);
    const used = await api.listAll<{ internal_number: string; status: string }>(
      'data/InternalNumberInventory',
      CUSTOMER,
      '&filter_field=status&filter_condition=equals&filter_text=Used',
    );
    expect(used).toHaveLength(40);
    expect(used.every((entry) => entry.meta.hierarchy === CUSTOMER && entry.data.status === 'Used')).toBe(true);
    const relations = await api.listAll<{ pattern: string }>('relation/LineRelation', CUSTOMER);
    expect(used.map((entry) => entry.data.internal_number).sort()).toEqual(relations.map((relation) => relation.data.pattern).sort());
    const available = await api.total(
      'data/InternalNumberInventory',
      CUSTOMER,
      '&filter_field=status&filter_condition=equals&filter_text=Available',
    );
    expect(available).toBeGreaterThan(100);
  });

  it('has countries at sys and one CFT and one FDP for LineRelation at the customer', async () => {
    const countries = await api.listAll<{ iso_code: string }>('data/Countries', 'sys', '&traversal=local');
    expect(countries.length).toBeGreaterThan(0);
    expect(countries.every((country) => country.meta.hierarchy === 'sys')).toBe(true);
    for (const model of ['data/ConfigurationTemplate', 'data/FieldDisplayPolicy']) {
      const found = await api.listAll<{ target_model_type: string }>(model, CUSTOMER);
      expect(found, model).toHaveLength(1);
      expect(found[0].meta.hierarchy).toBe(CUSTOMER);
      expect(found[0].data.target_model_type).toBe('relation/LineRelation');
    }
  });

  it('does not load the demo world twice on a second start', async () => {
    const before = await worldCounts(api);
    expect(server.stdoutText).toMatch(/loaded the demo world/);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    server = await startServe({ dataDir, seed: 'demo' });
    api = new ApiClient(server.url);
    expect(server.stdoutText).not.toMatch(/loaded the demo world/);
    expect(await worldCounts(api)).toEqual(before);
  });
});
