import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { ApiClient } from '../api/api-client';
import { createCatalogStore } from './catalog-store';
import type { Transport } from '../transport/transport';
import { createConfirmStore } from './confirm-store';
import { createFormStore } from './form-store';
import { createHierarchyStore } from './hierarchy-store';
import { createInstanceStore } from './instance-store';
import { createNavStore } from './nav-store';
import { createResourcesStore } from './resources-store';
import { createSearchStore } from './search-store';
import { createSessionStore } from './session-store';
import { createStatusStore } from './status-store';
import { createTransactionsStore } from './transactions-store';
import { createProfilesStore } from './profiles-store';
import { createWorkspaceStore } from './workspace-store';
import { createWorkbooksStore } from './workbooks-store';
import { createWorkbookStore } from './workbook-store';
import { createViewerStore } from './viewer-store';
import { createWorkbookIssuesStore } from './workbook-issues-store';
import { createSyncStore } from './sync-store';

/**
 * Every store of the window, built once around the one transport chosen at start. Components
 * reach them through `useStores()`; none of them knows which transport it is.
 */
export function createStores(transport: Transport) {
  const client = new ApiClient(transport);
  const confirm = createConfirmStore();
  client.setConfirm((question) => confirm.getState().ask(question));
  const nav = createNavStore();
  const status = createStatusStore(client);
  const hierarchy = createHierarchyStore(client);
  const workspace = createWorkspaceStore(client, hierarchy, nav);
  const workbook = createWorkbookStore(client);
  const workbooks = createWorkbooksStore(client);
  return {
    workspace,
    profiles: createProfilesStore(client, () => void workspace.getState().load()),
    client,
    confirm,
    nav,
    status,
    hierarchy,
    session: createSessionStore(client),
    resources: createResourcesStore(client),
    instance: createInstanceStore(client),
    form: createFormStore(client),
    transactions: createTransactionsStore(client),
    search: createSearchStore(client),
    catalog: createCatalogStore(client),
    workbooks,
    // A pull, a push or a workbook staged for a profile changes the workbooks listed.
    sync: createSyncStore(client, () => void workbooks.getState().load()),
    viewer: createViewerStore(client),
    workbook,
    workbookIssues: createWorkbookIssuesStore(client, workbook),
  };
}

export type Stores = ReturnType<typeof createStores>;

export const StoresContext = createContext<Stores | undefined>(undefined);

export function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores() needs a <StoresContext.Provider> above it.');
  return stores;
}

/** Selects from one store of the window: `useSlice('nav', (s) => s.place)`. */
export function useSlice<K extends keyof Stores, T>(key: K, selector: (state: StateOf<Stores[K]>) => T): T {
  const store = useStores()[key] as unknown as StoreApi<StateOf<Stores[K]>>;
  return useStore(store, selector);
}

type StateOf<S> = S extends StoreApi<infer T> ? T : never;
