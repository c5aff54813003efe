import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestService, PARIS, ACME, q, type TestService } from './helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

const addNode = (parent: string, name: string, nodeType = 'Site') =>
  t.call('POST', `/api/data/HierarchyNode/${q(parent)}`, { data: { name, node_type: nodeType } });

describe('hierarchy nodes', () => {
  it('creates a node and shows its path, from the root down, and its references', async () => {
    const created = await addNode(ACME, 'Berlin');
    expect(created.status).toBe(200);
    const node = await t.get(`/api/data/HierarchyNode/${created.body.pkid}/`);
    expect(node.body.meta.hierarchy).toBe(ACME);
    expect(node.body.meta.path.dot).toBe(`${ACME}.Berlin`);
    expect(node.body.meta.path.pkid).toBe(created.body.pkid);
    expect(node.body.meta.path.nodes.map((n: { name: string }) => n.name)).toEqual(['sys', 'hcs', 'Telco', 'Acme', 'Berlin']);
    const acme = await t.get(`/api/data/HierarchyNode/${node.body.meta.path.nodes[3].pkid}/`);
    expect(acme.body.meta.references.children.map((c: { pkid: string }) => c.pkid)).toContain(created.body.pkid);
    expect(node.body.meta.references.parent[0]).toEqual({
      pkid: acme.body.meta.pkid,
      href: `/api/data/HierarchyNode/${acme.body.meta.pkid}/`,
    });
  });

  it('resolves hierarchy given as a dot path or as a pkid', async () => {
    const byPath = await t.get(`/api/relation/LineRelation/${q(PARIS)}`);
    const paris = await t.get(`/api/data/HierarchyNode/${q(ACME, '&filter_field=name&filter_condition=equals&filter_text=Paris')}`);
    const byPkid = await t.get(`/api/relation/LineRelation/${q(paris.body.resources[0].meta.pkid)}`);
    expect(byPath.body.pagination.total).toBe(20);
    expect(byPkid.body.resources).toEqual(byPath.body.resources);
  });

  it('renames a node and every descendant path follows', async () => {
    const region = await addNode(ACME, 'Region-North', 'Intermediate');
    const site = await addNode(`${ACME}.Region-North`, 'Leeds');
    await t.call('POST', `/api/data/Countries/${q(`${ACME}.Region-North.Leeds`)}`, { data: { country_name: 'Leedsland', iso_code: 'LL' } });
    const renamed = await t.call('PUT', `/api/data/HierarchyNode/${region.body.pkid}/`, { data: { name: 'Region-South' } });
    expect(renamed.status).toBe(200);
    const leeds = await t.get(`/api/data/HierarchyNode/${site.body.pkid}/`);
    expect(leeds.body.meta.path.dot).toBe(`${ACME}.Region-South.Leeds`);
    expect(leeds.body.meta.hierarchy).toBe(`${ACME}.Region-South`);
    const countries = await t.get(`/api/data/Countries/${q(`${ACME}.Region-South.Leeds`)}`);
    expect(countries.body.resources[0].meta.hierarchy).toBe(`${ACME}.Region-South.Leeds`);
    expect((await t.get(`/api/data/Countries/${q(`${ACME}.Region-North.Leeds`)}`)).status).toBe(404);
  });

  it('moves a node with its subtree to another parent, and never into itself', async () => {
    const a = await addNode(ACME, 'Move-A', 'Intermediate');
    const b = await addNode(ACME, 'Move-B', 'Intermediate');
    const child = await addNode(`${ACME}.Move-A`, 'Child');
    const moved = await t.call('PUT', `/api/data/HierarchyNode/${a.body.pkid}/${q(`${ACME}.Move-B`)}`, { data: {} });
    expect(moved.status).toBe(200);
    expect((await t.get(`/api/data/HierarchyNode/${child.body.pkid}/`)).body.meta.path.dot).toBe(`${ACME}.Move-B.Move-A.Child`);
    const own = await t.call('PUT', `/api/data/HierarchyNode/${b.body.pkid}/${q(`${ACME}.Move-B`)}`, {
      data: { description: 'context only' },
    });
    expect(own.status).toBe(200);
    expect((await t.get(`/api/data/HierarchyNode/${b.body.pkid}/`)).body.meta.path.dot).toBe(`${ACME}.Move-B`);
    const before = t.snapshot();
    const loop = await t.call('PUT', `/api/data/HierarchyNode/${b.body.pkid}/${q(`${ACME}.Move-B.Move-A.Child`)}`, { data: {} });
    expect(loop.status).toBe(409);
    expect(loop.body.message).toMatch(/inside its own subtree/);
    expect(t.snapshot()).toBe(before);
  });

  it('refuses to delete a node that still holds children or resources, naming them', async () => {
    const acme = await t.get(
      `/api/data/HierarchyNode/${q('sys.hcs.Telco', '&filter_field=name&filter_condition=equals&filter_text=Acme')}`,
    );
    const before = t.snapshot();
    const refused = await t.call('DELETE', `/api/data/HierarchyNode/${acme.body.resources[0].meta.pkid}/`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
    expect(refused.body.message).toMatch(/child nodes \(.*London.*Paris/);
    expect(refused.body.message).toMatch(/data\/InternalNumberInventory: 200/);
    expect(refused.body.transaction_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(t.snapshot()).toBe(before);
    const root = await t.get(`/api/data/HierarchyNode/${q('sys', '&traversal=local')}`);
    const sysNode = root.body.resources.find((r: { data: { name: string } }) => r.data.name === 'sys');
    expect((await t.call('DELETE', `/api/data/HierarchyNode/${sysNode.meta.pkid}/`)).status).toBe(409);
  });

  it('deletes an empty node', async () => {
    const empty = await addNode(ACME, 'Empty');
    expect((await t.call('DELETE', `/api/data/HierarchyNode/${empty.body.pkid}/`)).status).toBe(200);
    expect((await t.get(`/api/data/HierarchyNode/${empty.body.pkid}/`)).status).toBe(404);
    expect((await t.get(`/api/relation/LineRelation/${q(`${ACME}.Empty`)}`)).body.code).toBe('hierarchy-not-found');
  });

  it('keeps node names unique within their parent', async () => {
    const duplicate = await addNode(ACME, 'Paris');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.message).toMatch(/Name 'Paris' already exists at sys.hcs.Telco.Acme/);
    expect((await addNode(`${ACME}.London`, 'Paris')).status).toBe(200);
  });

  it('refuses node names with dots', async () => {
    const bad = await addNode(ACME, 'a.b');
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('name');
  });
});
