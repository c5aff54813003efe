import { isWithin } from '../domain/hierarchy';
import type { Store } from '../domain/store';
import type { InventoryHolder, KeyHolder, PhoneHolder } from '../store/key-holders-repo';

export type { InventoryHolder, KeyHolder, PhoneHolder } from '../store/key-holders-repo';

/** The stored instances of a model holding a business key (store/key-holders-repo.ts). */
export function keyHolders(store: Store, modelType: string, bkey: string): KeyHolder[] {
  return store.keyHolders.holders(modelType, bkey);
}

/**
 * The inventory entry of a number at the node or its nearest ancestor: the entry
 * `numberEntry()` of domain/rules/live-view.ts finds when the row runs, read the
 * fast way.
 */
export function inventoryHolder(store: Store, nodePath: string, pattern: string): InventoryHolder | undefined {
  return store.keyHolders
    .inventoryHolders(JSON.stringify([pattern]))
    .filter((entry) => isWithin(nodePath, entry.hierarchyPath))
    .sort((a, b) => b.hierarchyPath.length - a.hierarchyPath.length)[0];
}

/** A stored phone by name, with its line count. */
export function phoneHolder(store: Store, name: string): PhoneHolder | undefined {
  return store.keyHolders.phone(JSON.stringify([name]));
}
