import { useEffect } from 'react';
import { catalogKey, type CatalogEntry, type CatalogModel } from './catalog-store';
import { useSlice, useStores } from './stores';

/** The catalog of a node, loaded on first use; undefined while there is no node. */
export function useModelCatalog(hierarchy: string | undefined): CatalogEntry | undefined {
  const { catalog, client } = useStores();
  const entry = useSlice('catalog', (s) => (hierarchy ? s.entries[catalogKey(client, hierarchy)] : undefined));
  useEffect(() => {
    if (hierarchy) void catalog.getState().load(hierarchy);
  }, [hierarchy, catalog, entry]);
  return entry;
}

/**
 * The models to name in views without a node of their own (search, transactions, an instance):
 * the catalog of the tree's selected node (else, in the Local workspace, the user's own node), else
 * the last one that came; empty until one has.
 */
export function useKnownModels(): CatalogModel[] {
  const { client } = useStores();
  const selected = useSlice('hierarchy', (s) => s.selected);
  const home = useSlice('session', (s) => s.user?.hierarchy_pkid);
  const entry = useModelCatalog(selected ?? (client.liveWorkspace ? undefined : home));
  const latest = useSlice('catalog', (s) => s.latest);
  return entry?.state === 'ready' ? entry.models : (latest ?? []);
}
