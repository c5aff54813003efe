import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';
import { asFault, type ApiFault } from '../api/fault';
import type { WhoAmI } from '../api/types';
import type { WorkspaceEntry, WorkspaceList } from '../../../main/service/contract/workstation-api';
import type { HierarchyStore } from './hierarchy-store';
import type { NavStore } from './nav-store';

export interface WorkspaceState {
  workspaces: WorkspaceEntry[];
  /** The workspace every /api/ call goes to: `Local`, or a remote profile's name. */
  current: string;
  /** The remote's own view of the signed-in user (its node roots the tree) in a live workspace. */
  remoteUser?: WhoAmI;
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
    workspaces: [{ name: 'Local', live: false, base_url: null, profile_id: null }],
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
      hierarchy.setState({ nodes: {}, expanded: {}, selected: undefined, rootPkid: undefined, rootFault: undefined, filter: '', filterHits: undefined });
      nav.getState().go({ view: 'resources', modelType: nav.getState().place.modelType ?? 'relation/LineRelation' });
      try {
        const remoteUser = entry.live ? await client.get<WhoAmI>('/api/whoami/') : undefined;
        set({ current: name, remoteUser, switching: false });
      } catch (error) {
        // The tree cannot start without the remote's own view of the user: it says why instead.
        const fault = asFault(error);
        hierarchy.setState({ rootFault: fault });
        set({ current: name, remoteUser: undefined, switching: false, fault });
      }
    },
  }));
}

export type WorkspaceStore = ReturnType<typeof createWorkspaceStore>;

/** A colour per workspace, so where the app acts is never in doubt: Local is neutral, each remote its own. */
export function workspaceColour(name: string): string {
  if (name === 'Local') return '#5b6470';
  const palette = ['#b54708', '#9e1f63', '#1d6f42', '#6941c6', '#c4320a', '#0e7090'];
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return palette[hash % palette.length];
}
