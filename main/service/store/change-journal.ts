import type { JsonObject } from '../api-types';
import type { Links } from './instances-repo';

/** An instance as stored: what a revert puts back of one a load changed or deleted. */
export interface InstanceImage {
  hierarchyPkid: string;
  data: JsonObject;
  links: Links;
  tags: string[];
  versionTag: string | null;
}

/**
 * One instance a bulk-load row wrote: as it was before the row's first write of it (null: the
 * row made it) and after its last (null: the row deleted it). Stored with the row's
 * sub-transaction (transaction-changes-repo.ts) so that the load can be reverted.
 */
export interface InstanceChange {
  pkid: string;
  modelType: string;
  before: InstanceImage | null;
  /**
   * What the row left of its own instance (null: it deleted it). The others it wrote beside it (a
   * number, a phone, a device line) keep no `after`: a revert puts them back, it never compares
   * them with what the load left (revert/revert-steps.ts).
   */
  after?: { hierarchyPkid: string; data: JsonObject } | null;
}

/**
 * The changes of a row as they are kept: its own instance whole, the others without what the row
 * left them at (a line relation's record went from about 2.5 KB to 1 KB, and no digest is made).
 */
export function keptChanges(changes: readonly InstanceChange[], ownPkid: string | null): InstanceChange[] {
  return changes.map((change) =>
    change.pkid === ownPkid ? change : { pkid: change.pkid, modelType: change.modelType, before: change.before },
  );
}

/**
 * What the instance writes of one bulk-load row change, while the row runs (batch-row.ts opens
 * and closes it around each row). Closed, it costs the writes one test of a field; open, the first
 * write of an instance that exists reads it once, to keep it as it was.
 */
/** A change while the row runs: what it left of each instance is known (and kept for its own, keptChanges). */
interface JournalEntry extends InstanceChange {
  after: { hierarchyPkid: string; data: JsonObject } | null;
}

export class ChangeJournal {
  private changes: Map<string, JournalEntry> | null = null;

  get open(): boolean {
    return this.changes !== null;
  }

  begin(): void {
    this.changes = new Map();
  }

  /** The row's changes, in the order it first wrote each instance; the journal closes. */
  end(): JournalEntry[] {
    const changes = this.changes;
    this.changes = null;
    return changes ? [...changes.values()] : [];
  }

  /**
   * A write of `pkid`. `read` answers the instance as stored now, called only on the row's first
   * write of it (null for an insert). `after` is what the write leaves; without a node, the
   * instance stays where it was.
   */
  note(
    pkid: string,
    read: () => { modelType: string; image: InstanceImage } | null,
    modelType: string | undefined,
    after: { hierarchyPkid?: string; data: JsonObject } | null,
  ): void {
    const changes = this.changes;
    if (!changes) return;
    let change = changes.get(pkid);
    if (!change) {
      const stored = read();
      change = { pkid, modelType: stored?.modelType ?? modelType ?? '', before: stored?.image ?? null, after: null };
      if (stored) change.after = { hierarchyPkid: stored.image.hierarchyPkid, data: stored.image.data };
      changes.set(pkid, change);
    }
    if (after === null) {
      change.after = null;
      return;
    }
    const hierarchyPkid = after.hierarchyPkid ?? change.after?.hierarchyPkid ?? change.before?.hierarchyPkid ?? '';
    change.after = { hierarchyPkid, data: after.data };
  }
}
