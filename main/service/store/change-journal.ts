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
  after: { hierarchyPkid: string; data: JsonObject } | null;
}

/**
 * What the instance writes of one bulk-load row change, while the row runs (batch-row.ts opens
 * and closes it around each row). Closed, it costs the writes one test of a field; open, the first
 * write of an instance that exists reads it once, to keep it as it was.
 */
export class ChangeJournal {
  private changes: Map<string, InstanceChange> | null = null;

  get open(): boolean {
    return this.changes !== null;
  }

  begin(): void {
    this.changes = new Map();
  }

  /** The row's changes, in the order it first wrote each instance; the journal closes. */
  end(): InstanceChange[] {
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
