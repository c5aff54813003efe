import type { NodeRow } from '../store/nodes-repo';

/**
 * What the rows validated so far will have changed once loaded, so each later row is judged
 * against the store as it will be: keys an earlier row adds or a delete frees, numbers taken or
 * released in the inventory, phones and lines added, hierarchy nodes created. Only keys and small
 * references are kept (never row data), so a workbook of 200,000 rows stays small in memory.
 */
export interface RowRef {
  sheet: string;
  row: number;
}

interface AddedKey {
  ref: RowRef;
  /** Node path of the row that adds it: keys scoped up the tree compare branches. */
  path: string;
  gone?: RowRef;
}

export interface InventoryState {
  status: string;
  ref: RowRef;
}

export class WorkbookOverlay {
  /** Rows that delete something: a node may be emptied by them before its own delete runs. */
  private deletes = 0;
  /** Model type -> key -> entries: a map per model, so a look-up hashes the key alone, not a joined string made per call. */
  private readonly added = new Map<string, Map<string, AddedKey[]>>();
  private readonly gone = new Map<string, RowRef>();
  private readonly inventory = new Map<string, InventoryState>();
  private readonly extraLines = new Map<string, number>();
  private readonly nodes = new Map<string, NodeRow>();

  /** The entry an earlier row added under `key` on a branch `onBranch` accepts, if still there. */
  findAdded(modelType: string, key: string, onBranch: (path: string) => boolean = () => true): AddedKey | undefined {
    const entries = this.added.get(modelType)?.get(key);
    if (!entries) return undefined;
    for (const entry of entries) if (!entry.gone && onBranch(entry.path)) return entry;
    return undefined;
  }

  addKey(modelType: string, key: string, path: string, ref: RowRef): void {
    let byKey = this.added.get(modelType);
    if (!byKey) this.added.set(modelType, (byKey = new Map()));
    const entries = byKey.get(key);
    if (entries) entries.push({ ref, path });
    else byKey.set(key, [{ ref, path }]);
  }

  /** A key an earlier row added is removed again (deleted, or changed by a modify). */
  dropAdded(modelType: string, key: string, ref: RowRef): void {
    const entry = this.findAdded(modelType, key);
    if (entry) entry.gone = ref;
  }

  countDelete(): void {
    this.deletes += 1;
  }

  anyDeletes(): boolean {
    return this.deletes > 0;
  }

  /** A stored instance a row deletes (or re-keys): its old key no longer counts. */
  markGone(pkid: string, ref: RowRef): void {
    this.gone.set(pkid, ref);
  }

  goneBy(pkid: string): RowRef | undefined {
    return this.gone.get(pkid);
  }

  inventoryState(entryPkid: string): InventoryState | undefined {
    return this.inventory.get(entryPkid);
  }

  setInventory(entryPkid: string, status: string, ref: RowRef): void {
    this.inventory.set(entryPkid, { status, ref });
  }

  /** Lines earlier rows put on a phone (negative when they took lines off). */
  linesAdded(phone: string): number {
    return this.extraLines.get(phone) ?? 0;
  }

  addLines(phone: string, count: number): void {
    this.extraLines.set(phone, this.linesAdded(phone) + count);
  }

  /** A hierarchy node an earlier row creates: later rows may already name it. */
  pendingNode(path: string): NodeRow | undefined {
    return this.nodes.get(path);
  }

  addNode(node: NodeRow): void {
    this.nodes.set(node.path, node);
  }
}

export const refText = (ref: RowRef, sheet: string): string =>
  ref.sheet === sheet ? `row ${ref.row}` : `row ${ref.row} of sheet '${ref.sheet}'`;
