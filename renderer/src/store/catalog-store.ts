import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';
import { asFault, faultFrom, type ApiFault } from '../api/fault';
import type { WorkspaceHeaderName, WorkstationModel, WorkstationModelList } from '../../../main/service/contract/workstation-api';

/** A model a node may hold, with its title, as the service lists it (`GET /workstation/models/`). */
export type CatalogModel = WorkstationModel;

/** The model's title from the service's catalog; its model type while the catalog is not there. */
export function titleOf(models: readonly CatalogModel[] | undefined, modelType: string): string {
  return models?.find((model) => model.model_type === modelType)?.title ?? modelType;
}

export type CatalogEntry = { state: 'loading' } | { state: 'ready'; models: CatalogModel[] } | { state: 'error'; fault: ApiFault };

export interface CatalogState {
  /** By `<workspace>|<node pkid or path>`: a node of a live workspace is the remote's, never the local one of the same pkid. */
  entries: Record<string, CatalogEntry>;
  /** The last catalog that came, for views that show titles without a node of their own (search, transactions). */
  latest?: CatalogModel[];
  /** Loads the catalog of a node once; a loaded or loading node is not asked again (`force` asks again after a fault). */
  load(hierarchy: string, force?: boolean): Promise<void>;
}

const HEADER: WorkspaceHeaderName = 'x-workstation-workspace';

export function catalogKey(client: ApiClient, hierarchy: string): string {
  return `${client.liveWorkspace?.name ?? 'Local'}|${hierarchy}`;
}

/** The models each node may hold, from `GET /workstation/models/?hierarchy=<node>`, asked once per node and kept. */
export function createCatalogStore(client: ApiClient) {
  return createStore<CatalogState>()((set, get) => ({
    entries: {},
    async load(hierarchy, force = false) {
      const key = catalogKey(client, hierarchy);
      const known = get().entries[key];
      if (known && (known.state !== 'error' || !force)) return;
      set({ entries: { ...get().entries, [key]: { state: 'loading' } } });
      let entry: CatalogEntry;
      try {
        // /workstation/ is answered locally; the header tells it the node is the live workspace's.
        const live = client.liveWorkspace;
        const answer = await client.raw('GET', '/workstation/models/', {
          query: { hierarchy },
          headers: live ? { [HEADER]: live.name } : undefined,
        });
        const text = typeof answer.body === 'string' ? answer.body : new TextDecoder().decode(answer.body);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text) as unknown;
        } catch {
          parsed = undefined;
        }
        if (answer.status < 200 || answer.status >= 300) throw faultFrom(answer.status, parsed);
        const models = (parsed as WorkstationModelList | undefined)?.models;
        if (!Array.isArray(models)) throw faultFrom(answer.status, undefined);
        entry = { state: 'ready', models };
        set({ latest: models });
      } catch (error) {
        entry = { state: 'error', fault: asFault(error) };
      }
      set({ entries: { ...get().entries, [key]: entry } });
    },
  }));
}

export type CatalogStore = ReturnType<typeof createCatalogStore>;
