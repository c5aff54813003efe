import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../renderer/src/api/api-client';
import { ApiFault } from '../../renderer/src/api/fault';
import { createHierarchyStore } from '../../renderer/src/store/hierarchy-store';
import { createNavStore } from '../../renderer/src/store/nav-store';
import { createWorkspaceStore, workspaceColour } from '../../renderer/src/store/workspace-store';
import { urlOf, type Transport, type TransportAnswer, type TransportRequestOptions } from '../../renderer/src/transport/transport';

/** Choosing a live workspace: every /api/ call names it, /workstation/ never does, and risky changes ask first. */
class HeaderTransport implements Transport {
  readonly signIn = 'session' as const;
  readonly calls: { method: string; path: string; headers: Record<string, string> }[] = [];
  async request(method: string, path: string, options: TransportRequestOptions = {}): Promise<TransportAnswer> {
    this.calls.push({ method, path, headers: { ...options.headers } });
    const body =
      path === '/workstation/workspaces/'
        ? {
            workspaces: [
              { name: 'Local', live: false, base_url: null, profile_id: null },
              { name: 'Cust', live: true, base_url: 'https://voss.cust.example', profile_id: 'p1' },
            ],
          }
        : path === '/api/whoami/'
          ? { username: 'remote-admin', role: 'admin', hierarchy: 'sys.cust', hierarchy_pkid: 'r00t', workspace: 'Local', release: '21.1' }
          : { success: true };
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  }
}

function setUp() {
  const transport = new HeaderTransport();
  const client = new ApiClient(transport);
  const asked: string[] = [];
  let answer = true;
  client.setConfirm((message) => {
    asked.push(message);
    return answer;
  });
  const hierarchy = createHierarchyStore(client);
  const workspace = createWorkspaceStore(client, hierarchy, createNavStore());
  return { transport, client, asked, workspace, hierarchy, say: (yes: boolean) => (answer = yes) };
}

describe('the workspace store and the client', () => {
  it("sends /api/ calls of a live workspace with its header, after the remote's whoami roots the tree", async () => {
    const { transport, client, workspace, hierarchy } = setUp();
    hierarchy.setState({ selected: 'local-node', rootPkid: 'local-root' });
    await workspace.getState().load();
    expect(workspace.getState().workspaces.map((w) => w.name)).toEqual(['Local', 'Cust']);
    await workspace.getState().switchTo('Cust');
    expect(workspace.getState()).toMatchObject({
      current: 'Cust',
      remoteHome: { pkid: 'r00t', hierarchy: 'sys.cust', source: 'whoami' },
      switching: false,
    });
    expect(hierarchy.getState().selected).toBeUndefined();
    await client.get('/api/data/Countries/');
    await client.get('/workstation/remote-profiles/');
    const byPath = (path: string) => transport.calls.filter((call) => call.path === path).pop()?.headers['x-workstation-workspace'];
    expect(byPath('/api/whoami/')).toBe('Cust');
    expect(byPath('/api/data/Countries/')).toBe('Cust');
    expect(byPath('/workstation/remote-profiles/')).toBeUndefined();
    await workspace.getState().switchTo('Local');
    await client.get('/api/data/Phones/');
    expect(byPath('/api/data/Phones/')).toBeUndefined();
  });

  it('asks before a delete, a tag change or a bulk load in a live workspace, naming the deployment; refused, nothing is sent', async () => {
    const { transport, client, asked, workspace, say } = setUp();
    await client.send('DELETE', '/api/data/Countries/abc/');
    expect(asked).toEqual([]);
    await workspace.getState().load();
    await workspace.getState().switchTo('Cust');
    say(false);
    const before = transport.calls.length;
    await expect(client.send('DELETE', '/api/relation/LineRelation/abc/')).rejects.toMatchObject({ code: 'cancelled' });
    await expect(client.send('PATCH', '/api/relation/LineRelation/abc/+tag/', undefined, { tag: 'x' })).rejects.toBeInstanceOf(ApiFault);
    await expect(
      client.send('POST', '/api/tool/BulkLoad/', { bulkload_file: 'a.xlsx' }, { method: 'bulkload_spreadsheet' }),
    ).rejects.toThrow(/nothing was sent to Cust/);
    expect(transport.calls.length).toBe(before);
    expect(asked).toHaveLength(3);
    for (const message of asked) expect(message).toContain('Cust (https://voss.cust.example)');
    expect(asked.map((m) => m.split(' on ')[0])).toEqual(['Delete', 'Change tags', 'Bulk load']);
    await client.send('POST', '/api/tool/BulkLoad/', { bulkload_file: 'a.xlsx' }, { method: 'validate' });
    await client.send('POST', '/api/relation/LineRelation/', { data: {} });
    expect(asked).toHaveLength(3);
    say(true);
    await client.send('DELETE', '/api/relation/LineRelation/abc/');
    expect(transport.calls.pop()).toMatchObject({ method: 'DELETE', headers: { 'x-workstation-workspace': 'Cust' } });
  });

  it('does not ask again for a call a dialog of the app already confirmed for this deployment, but does for another', async () => {
    const { transport, client, asked, workspace, say } = setUp();
    await workspace.getState().load();
    await workspace.getState().switchTo('Cust');
    say(false);
    await client.send('DELETE', '/api/relation/LineRelation/abc/', undefined, { nowait: true }, 'Cust');
    expect(asked).toEqual([]);
    expect(transport.calls.pop()).toMatchObject({ method: 'DELETE', headers: { 'x-workstation-workspace': 'Cust' } });
    // Confirmed while another workspace was shown: asked again, and refused here.
    await expect(client.send('DELETE', '/api/relation/LineRelation/abc/', undefined, undefined, 'Local')).rejects.toMatchObject({
      code: 'cancelled',
    });
    expect(asked).toHaveLength(1);
  });

  it("roots a live tree on the profile's home hierarchy when the remote has no /api/whoami/, and says what to enter without one", async () => {
    const calls: string[] = [];
    let home: string | null = null;
    const transport: Transport = {
      signIn: 'session',
      async request(_method, path, options = {}) {
        const url = urlOf(path, options.query);
        calls.push(url);
        const answer = (status: number, body: unknown): TransportAnswer => ({
          status,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (path === '/workstation/workspaces/')
          return answer(200, {
            workspaces: [
              { name: 'Local', live: false, base_url: null, profile_id: null, home_hierarchy: null },
              { name: 'Spec', live: true, base_url: 'https://voss.spec.example', profile_id: 'p2', home_hierarchy: home },
            ],
          });
        if (path === '/api/whoami/') return answer(404, { success: false, http_code: 404, code: 'not-found', message: 'Not Found' });
        if (path === '/api/data/HierarchyNode/' && url.includes('hierarchy=sys.spec&') && url.includes('filter_text=Acme')) {
          return answer(200, {
            pagination: { total: 1 },
            resources: [{ data: { name: 'Acme' }, meta: { pkid: 'acme-pkid', hierarchy: 'sys.spec' } }],
          });
        }
        return answer(200, { pagination: { total: 0 }, resources: [] });
      },
    };
    const client = new ApiClient(transport);
    const hierarchy = createHierarchyStore(client);
    const workspace = createWorkspaceStore(client, hierarchy, createNavStore());
    await workspace.getState().load();
    await workspace.getState().switchTo('Spec');
    expect(workspace.getState().remoteHome).toBeUndefined();
    expect(hierarchy.getState().rootFault).toMatchObject({ code: 'remote-home-unknown' });
    expect(hierarchy.getState().rootFault?.message).toContain("enter the profile's home hierarchy");

    home = 'sys.spec.Acme';
    await workspace.getState().switchTo('Local');
    await workspace.getState().load();
    await workspace.getState().switchTo('Spec');
    expect(workspace.getState()).toMatchObject({
      current: 'Spec',
      fault: undefined,
      remoteHome: { pkid: 'acme-pkid', hierarchy: 'sys.spec.Acme', source: 'profile' },
    });
    expect(hierarchy.getState().rootFault).toBeUndefined();
    expect(calls.filter((url) => url.startsWith('/api/')).every((url) => url.includes('format=json'))).toBe(true);
  });

  it('tells a remote that cannot be reached as that, not as a missing whoami', async () => {
    const transport: Transport = {
      signIn: 'session',
      async request(_method, path) {
        const body =
          path === '/workstation/workspaces/'
            ? {
                workspaces: [
                  { name: 'Spec', live: true, base_url: 'https://voss.spec.example', profile_id: 'p2', home_hierarchy: 'sys.spec' },
                ],
              }
            : { success: false, http_code: 502, code: 'remote-unreachable', message: 'Cannot reach Spec.' };
        return {
          status: path === '/workstation/workspaces/' ? 200 : 502,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        };
      },
    };
    const client = new ApiClient(transport);
    const hierarchy = createHierarchyStore(client);
    const workspace = createWorkspaceStore(client, hierarchy, createNavStore());
    await workspace.getState().load();
    await workspace.getState().switchTo('Spec');
    expect(hierarchy.getState().rootFault).toMatchObject({ code: 'remote-unreachable', status: 502 });
  });

  it('gives Local a neutral colour and each remote a colour of its own', () => {
    expect(workspaceColour('Local')).toBe('#5b6470');
    expect(workspaceColour('Cust')).not.toBe(workspaceColour('Local'));
    expect(workspaceColour('Cust')).toBe(workspaceColour('Cust'));
  });
});
