import type { NodeRow } from '../store/nodes-repo';
import { WorkbookOverlay, type InventoryState, type RowRef } from '../sheets/validate-overlay';

/**
 * The validation overlay (what earlier rows will have done), recording for the row being
 * validated which of its entries the row read and what it changed. That record is what makes
 * incremental validation exact: a row's result depends only on its own cells, the store, and
 * the overlay entries it read; an entry's state at a row is the fold of the effects of the rows
 * before it. So after an edit only the edited rows and the rows that read an entry whose
 * effects changed need validating again, the effects of the others replayed as stored.
 */
export type OverlayEffect =
  | ['key', string, string, string, RowRef]
  | ['drop', string, string, RowRef]
  | ['gone', string, RowRef]
  | ['inventory', string, string, RowRef]
  | ['lines', string, number]
  | ['node', NodeRow]
  | ['delete'];

/** The overlay entry an effect writes: the same name a read of that entry records. */
export function effectKey(effect: OverlayEffect): string {
  switch (effect[0]) {
    case 'key':
    case 'drop':
      return `k|${effect[1]}|${effect[2]}`;
    case 'gone':
      return `g|${effect[1]}`;
    case 'inventory':
      return `i|${effect[1]}`;
    case 'lines':
      return `p|${effect[1]}`;
    case 'node':
      return `n|${effect[1].path}`;
    case 'delete':
      return 'd';
  }
}

/** A 53-bit hash of an entry name (cyrb53): a collision only makes an edit revalidate a row more. */
export function keyHash(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export class TrackedOverlay extends WorkbookOverlay {
  private reads = new Set<string>();
  private effects: OverlayEffect[] = [];
  private replaying = false;

  /** Starts recording a row; answers what the previous row read and did. */
  startRow(): void {
    this.reads = new Set();
    this.effects = [];
  }

  rowRecord(): { reads: string[]; effects: OverlayEffect[] } {
    return { reads: [...this.reads], effects: this.effects };
  }

  /** Replays the effects a row had when it was validated, without validating it. */
  replay(effects: OverlayEffect[]): void {
    this.replaying = true;
    try {
      for (const effect of effects) this.apply(effect);
    } finally {
      this.replaying = false;
    }
  }

  private apply(effect: OverlayEffect): void {
    switch (effect[0]) {
      case 'key':
        return this.addKey(effect[1], effect[2], effect[3], effect[4]);
      case 'drop':
        return this.dropAdded(effect[1], effect[2], effect[3]);
      case 'gone':
        return this.markGone(effect[1], effect[2]);
      case 'inventory':
        return this.setInventory(effect[1], effect[2], effect[3]);
      case 'lines':
        return this.addLines(effect[1], effect[2]);
      case 'node':
        return this.addNode(effect[1]);
      case 'delete':
        return this.countDelete();
    }
  }

  private read(key: string): void {
    if (!this.replaying) this.reads.add(key);
  }

  private did(effect: OverlayEffect): void {
    if (!this.replaying) this.effects.push(effect);
  }

  override findAdded(modelType: string, key: string, onBranch?: (path: string) => boolean): ReturnType<WorkbookOverlay['findAdded']> {
    this.read(`k|${modelType}|${key}`);
    return super.findAdded(modelType, key, onBranch);
  }

  override addKey(modelType: string, key: string, path: string, ref: RowRef): void {
    this.did(['key', modelType, key, path, ref]);
    super.addKey(modelType, key, path, ref);
  }

  override dropAdded(modelType: string, key: string, ref: RowRef): void {
    this.did(['drop', modelType, key, ref]);
    // Not through this.findAdded: dropping is a write, not a read of the row.
    const replaying = this.replaying;
    this.replaying = true;
    try {
      super.dropAdded(modelType, key, ref);
    } finally {
      this.replaying = replaying;
    }
  }

  override markGone(pkid: string, ref: RowRef): void {
    this.did(['gone', pkid, ref]);
    super.markGone(pkid, ref);
  }

  override goneBy(pkid: string): RowRef | undefined {
    this.read(`g|${pkid}`);
    return super.goneBy(pkid);
  }

  override inventoryState(entryPkid: string): InventoryState | undefined {
    this.read(`i|${entryPkid}`);
    return super.inventoryState(entryPkid);
  }

  override setInventory(entryPkid: string, status: string, ref: RowRef): void {
    this.did(['inventory', entryPkid, status, ref]);
    super.setInventory(entryPkid, status, ref);
  }

  override linesAdded(phone: string): number {
    this.read(`p|${phone}`);
    return super.linesAdded(phone);
  }

  override addLines(phone: string, count: number): void {
    this.did(['lines', phone, count]);
    // addLines reads the count it adds to: a write, not a read of the row.
    const replaying = this.replaying;
    this.replaying = true;
    try {
      super.addLines(phone, count);
    } finally {
      this.replaying = replaying;
    }
  }

  override pendingNode(path: string): NodeRow | undefined {
    this.read(`n|${path}`);
    return super.pendingNode(path);
  }

  override addNode(node: NodeRow): void {
    this.did(['node', node]);
    super.addNode(node);
  }

  override countDelete(): void {
    this.did(['delete']);
    super.countDelete();
  }

  override anyDeletes(): boolean {
    this.read('d');
    return super.anyDeletes();
  }
}
