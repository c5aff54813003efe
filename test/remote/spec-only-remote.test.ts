import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHomeNode, type HomeOutcome } from '../../main/service/contract/home-node';
import type { ConnectionTestResult, WorkspaceList } from '../../main/service/contract/workstation-api';
import { cleanupServers, type ServeProcess } from '../http/serve-process';
import { ACME, basic, openLocal, PARIS, REMOTE_PASSWORD, startRemote, type Client, type LocalWorkstation } from './remote-world';
import { SpecOnlyFront } from './spec-only-front';

/**
 * A live workspace on a deployment that speaks the spec only (issue 14): our own `serve` behind
 * a front that answers 404 to `/api/whoami/`. Without a home hierarchy Test connection and the
 * tree's search say what to enter; with one, the renderer's steps (home-node.ts, as its
 * workspace store runs them, and the tree's calls) go over real HTTP to the local workstation,
 * through its proxy and the front to the remote, and root the tree there. The renderer's stores
 * themselves: test/renderer/workspace-store.test.ts; the window: test/e2e/live-workspace.test.ts.
 */
let remote: ServeProcess;
let direct: Client;
let front: SpecOnlyFront;
let local: LocalWorkstation;
let profileId: string;
const PROFILE = 'SpecOnly';

/**
 * What the renderer's workspace store does on switching (homeOf in workspace-store.ts): reads the
 * workspace list, then runs home-node.ts through the live workspace, a 401, 5xx or network
 * fault thrown, any other refusal read as an answer.
 */
async function liveHome(workspace: string): Promise<HomeOutcome> {
  const { workspaces } = (await local.admin.get('/workstation/workspaces/')).body as WorkspaceList;
  const entry = workspaces.find((candidate) => candidate.name === workspace);
  if (!entry) throw new Error(`no workspace ${workspace}`);
  const live = local.live(workspace);
  return findHomeNode(
    async (path, query) => {
      const answer = await live.get(`${path}?${new URLSearchParams(query).toString()}`);
      if (answer.status === 401 || answer.status >= 500) throw new Error(`HTTP ${answer.status}: ${answer.text}`);
      return { status: answer.status, body: answer.body };
    },
    entry.home_hierarchy,
    entry.name,
    "the profile's user",
  );
}

/** The tree's own call for a node's children (hierarchy-store.ts), through the live workspace. */
async function childrenOf(workspace: string, pkid: string): Promise<{ pkid: string; name: string }[]> {
  const listed = await local
    .live(workspace)
    .get(`/api/data/HierarchyNode/?hierarchy=${pkid}&traversal=local&limit=2000&order_by=name&direction=asc`);
  expect(listed.status, listed.text).toBe(200);
  return (listed.body.resources as { meta: { pkid: string }; data: { name: string } }[])
    .map((node) => ({ pkid: node.meta.pkid, name: node.data.name }))
    .filter((node) => node.pkid !== pkid);
}

const testConnection = async (): Promise<ConnectionTestResult> =>
  (await local.admin.call('POST', `/workstation/remote-profiles/${PROFILE}/test/`)).body as ConnectionTestResult;
const setHome = async (home: string | null): Promise<void> => {
  const changed = await local.admin.call('PUT', `/workstation/remote-profiles/${PROFILE}/`, { json: { home_hierarchy: home } });
  expect(changed.status, changed.text).toBe(200);
  expect(changed.body.profile.home_hierarchy).toBe(home === '' ? null : home);
};
const pkidOf = async (path: string): Promise<string> => {
  const names = path.split('.');
  const listed = await direct.get(
    `/api/data/HierarchyNode/?hierarchy=${names.slice(0, -1).join('.')}&traversal=local&filter_field=name&filter_condition=equals&filter_text=${names.at(-1)}`,
  );
  return listed.body.resources[0].meta.pkid as string;
};

beforeAll(async () => {
  ({ remote, direct } = await startRemote('21.1'));
  front = new SpecOnlyFront(new URL(remote.url));
  await front.start();
  local = await openLocal();
  profileId = (await local.addProfile({ name: PROFILE, base_url: front.url, username: 'admin', password: REMOTE_PASSWORD })).id;
}, 60_000);

afterAll(async () => {
  await local?.close();
  await front?.close();
  await cleanupServers();
});

describe('a live workspace on a remote without /api/whoami/', () => {
  it('the front really hides whoami and passes the rest', async () => {
    const front401 = await fetch(`${front.url}/api/whoami/`, { headers: { authorization: basic('admin', REMOTE_PASSWORD) } });
    expect(front401.status).toBe(404);
    const listed = await fetch(`${front.url}/api/data/HierarchyNode/?hierarchy=${ACME}&traversal=local`, {
      headers: { authorization: basic('admin', REMOTE_PASSWORD) },
    });
    expect(listed.status).toBe(200);
  });

  it('without a home hierarchy: Test connection and the tree say what to enter', async () => {
    const result = await testConnection();
    expect(result).toMatchObject({
      success: false,
      verdict: 'no-home',
      reachable: true,
      credentials: 'accepted',
      home: { source: null, hierarchy: null, pkid: null },
    });
    expect(result.message).toMatch(
      /^SpecOnly answers as admin in \d+ ms; it runs release 21\.1 or later.*\. But SpecOnly does not say where user admin sits in its hierarchy \(it has no \/api\/whoami\/, HTTP 404\): enter the profile's home hierarchy/,
    );

    const { workspaces } = (await local.admin.get('/workstation/workspaces/')).body as WorkspaceList;
    expect(workspaces.find((entry) => entry.name === PROFILE)).toMatchObject({ live: true, profile_id: profileId, home_hierarchy: null });
    const outcome = await liveHome(PROFILE);
    expect(outcome).toMatchObject({ found: false, reason: 'no-home' });
    expect(outcome.found ? '' : outcome.message).toMatch(
      /^SpecOnly does not say where the profile's user sits.*enter the profile's home hierarchy.*in Settings or with `remote add --home`\.$/,
    );
  });

  it('a home hierarchy that is not there is named, with what to correct', async () => {
    await setHome('sys.hcs.Telco.Nowhere');
    const result = await testConnection();
    expect(result).toMatchObject({ success: false, verdict: 'no-home' });
    expect(result.message).toMatch(
      /SpecOnly has no hierarchy node sys\.hcs\.Telco\.Nowhere that user admin may read: correct the profile's home hierarchy/,
    );
  });

  it('refuses a home hierarchy that is no dot path or pkid, with its field', async () => {
    const refused = await local.admin.call('PUT', `/workstation/remote-profiles/${PROFILE}/`, { json: { home_hierarchy: 'sys..Acme' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, code: 'validation-failed', details: [{ field: 'home_hierarchy' }] });
  });

  it('with the home hierarchy set, Test connection is ok and the live tree roots there and browses, through the proxy', async () => {
    await setHome(ACME);
    const result = await testConnection();
    expect(result).toMatchObject({ success: true, verdict: 'ok', home: { source: 'profile', hierarchy: ACME, pkid: await pkidOf(ACME) } });
    expect(result.message).toMatch(/the tree starts at the profile's home hierarchy sys\.hcs\.Telco\.Acme\.$/);

    const refusedBefore = front.refusedWhoami;
    const outcome = await liveHome(PROFILE);
    expect(front.refusedWhoami).toBe(refusedBefore + 1);
    expect(outcome).toEqual({ found: true, node: { pkid: await pkidOf(ACME), hierarchy: ACME, source: 'profile' } });
    // What the tree does with it: the root read, its children listed, one of them opened.
    const home = outcome.found ? outcome.node.pkid : '';
    const root = await local.live(PROFILE).get(`/api/data/HierarchyNode/${home}/`);
    expect(root.body.meta.path.dot).toBe(ACME);
    const paris = (await childrenOf(PROFILE, home)).find((node) => node.name === 'Paris');
    expect(paris, 'Paris under Acme').toBeDefined();
    expect(await childrenOf(PROFILE, paris?.pkid ?? '')).toEqual(expect.any(Array));
    // And the resources there come from the remote, through the live workspace.
    const lines = await local.live(PROFILE).get(`/api/relation/LineRelation/?hierarchy=${PARIS}&limit=1`);
    const remoteLines = await direct.get(`/api/relation/LineRelation/?hierarchy=${PARIS}&limit=1`);
    expect(lines.body.pagination.total).toBe(remoteLines.body.pagination.total);
  });

  it("takes a node's pkid as the home hierarchy too", async () => {
    const paris = await pkidOf(PARIS);
    await setHome(paris);
    const result = await testConnection();
    expect(result).toMatchObject({ success: true, verdict: 'ok', home: { source: 'profile', hierarchy: PARIS, pkid: paris } });
    await setHome('');
  });

  it('finds the home node of a remote user who may not read the node above it', async () => {
    const made = await direct.call('POST', `/api/data/User/?hierarchy=${ACME}`, {
      json: { data: { username: 'acme.admin', role: 'admin', password: 'Acme-admin-pw-1' } },
    });
    expect(made.status, made.text).toBe(200);
    const above = await fetch(`${remote.url}/api/data/HierarchyNode/?hierarchy=sys.hcs.Telco&traversal=local`, {
      headers: { authorization: basic('acme.admin', 'Acme-admin-pw-1') },
    });
    expect(above.status, 'the node above is out of its reach').toBe(403);
    const acmeOnly = await local.addProfile({
      name: 'AcmeOnly',
      base_url: front.url,
      username: 'acme.admin',
      password: 'Acme-admin-pw-1',
      home_hierarchy: ACME,
    });
    const result = (await local.admin.call('POST', `/workstation/remote-profiles/${acmeOnly.id}/test/`)).body as ConnectionTestResult;
    expect(result).toMatchObject({ success: true, verdict: 'ok', home: { source: 'profile', hierarchy: ACME, pkid: await pkidOf(ACME) } });
  });

  it("still roots on the remote's whoami when it has one, whatever the profile says", async () => {
    const withWhoami = await local.addProfile({
      name: 'WithWhoami',
      base_url: remote.url,
      username: 'admin',
      password: REMOTE_PASSWORD,
      home_hierarchy: PARIS,
    });
    const result = (await local.admin.call('POST', `/workstation/remote-profiles/${withWhoami.id}/test/`)).body as ConnectionTestResult;
    expect(result).toMatchObject({ success: true, verdict: 'ok', home: { source: 'whoami', hierarchy: 'sys' } });
    expect(result.message).toMatch(/its \/api\/whoami\/ places user admin at sys\.$/);
    expect(await liveHome('WithWhoami')).toMatchObject({ found: true, node: { source: 'whoami', hierarchy: 'sys' } });
  });
});
