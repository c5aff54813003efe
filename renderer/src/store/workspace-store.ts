import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';
import { ApiFault, asFault } from '../api/fault';
import { findHomeNode, type HomeGet, type HomeNode } from '../../../main/service/contract/home-node';
import type { WorkspaceEntry, WorkspaceList } from '../../../main/service/contract/workstation-api';
import type { HierarchyStore } from './hierarchy-store';
import type { NavStore } from './nav-store';

export interface WorkspaceState {
  workspaces: WorkspaceEntry[];
  /** The workspace every /api/ call goes to: `Local`, or a remote profile's name. */
  current: string;
  /**
   * Where the tree starts in a live workspace: the node the remote's /api/whoami/ names, else the
   * profile's home hierarchy found on the remote (a deployment that speaks the spec only).
   */
  remoteHome?: HomeNode;
  switching: boolean;
  fault?: ApiFault;
  load(): Promise<void>;
  switchTo(name: string): Promise<void>;
}

/**
 * The workspaces the user may choose (`Local`, and each remote profile an admin may use) and
 * the one in use. Switching points the client at the other deployment and starts the tree,
 * the views and the navigation afresh there, so nothing of one deployment is shown as the other's.
 */
export function createWorkspaceStore(client: ApiClient, hierarchy: HierarchyStore, nav: NavStore) {
  return createStore<WorkspaceState>()((set, get) => ({
    workspaces: [{ name: 'Local', live: false, base_url: null, profile_id: null, home_hierarchy: null }],
    current: 'Local',
    switching: false,
    async load() {
      try {
        const { workspaces } = await client.get<WorkspaceList>('/workstation/workspaces/');
        // The live profile renamed or moved (Settings): the workspace follows it by id, so the
        // next call names it as the service now knows it and the confirmations show the new address.
        const was = get().workspaces.find((entry) => entry.name === get().current);
        const now = was?.live ? workspaces.find((entry) => entry.profile_id === was.profile_id) : undefined;
        if (now) client.setWorkspace({ name: now.name, baseUrl: now.base_url ?? '' });
        set({ workspaces, fault: undefined, ...(now ? { current: now.name } : {}) });
      } catch (error) {
        set({ fault: asFault(error) });
      }
    },
    async switchTo(name) {
      const entry = get().workspaces.find((candidate) => candidate.name === name);
      if (!entry || name === get().current) return;
      set({ switching: true, fault: undefined });
      client.setWorkspace(entry.live ? { name: entry.name, baseUrl: entry.base_url ?? '' } : undefined);
      hierarchy.setState({
        nodes: {},
        expanded: {},
        selected: undefined,
        rootPkid: undefined,
        rootFault: undefined,
        filter: '',
        filterHits: undefined,
      });
      nav.getState().go({ view: 'resources', modelType: nav.getState().place.modelType ?? 'relation/LineRelation' });
      try {
        const remoteHome = entry.live ? await homeOf(client, entry) : undefined;
        set({ current: name, remoteHome, switching: false });
      } catch (error) {
        // The tree cannot start without knowing where the user sits on the remote: it says why instead.
        const fault = asFault(error);
        hierarchy.setState({ rootFault: fault });
        set({ current: name, remoteHome: undefined, switching: false, fault });
      }
    },
  }));
}

export type WorkspaceStore = ReturnType<typeof createWorkspaceStore>;

/**
 * The live workspace's home node (home-node.ts): the remote's whoami, else the profile's home
 * hierarchy. A 401, a 5xx or a network fault (remote-unreachable...) is thrown as it came, so the
 * tree tells that trouble; any other refusal is an answer the search reads (no whoami: a 404).
 */
async function homeOf(client: ApiClient, entry: WorkspaceEntry): Promise<HomeNode> {
  const get: HomeGet = async (path, query) => {
    try {
      return { status: 200, body: await client.get<unknown>(path, query) };
    } catch (error) {
      const fault = asFault(error);
      if (fault.status === 0 || fault.status === 401 || fault.status >= 500) throw fault;
      return { status: fault.status, body: undefined };
    }
  };
  const outcome = await findHomeNode(get, entry.home_hierarchy, entry.name, "the profile's user");
  if (outcome.found) return outcome.node;
  throw new ApiFault(404, outcome.reason === 'no-home' ? 'remote-home-unknown' : 'remote-home-not-found', outcome.message);
}

/** A colour per workspace, so where the app acts is never in doubt: Local is neutral, each remote its own. */
export function workspaceColour(name: string): string {
  if (name === 'Local') return '#5b6470';
  const palette = ['#b54708', '#9e1f63', '#1d6f42', '#6941c6', '#c4320a', '#0e7090'];
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return palette[hash % palette.length];
}
