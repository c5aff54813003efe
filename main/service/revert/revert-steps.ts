import type { JsonObject } from '../api-types';
import { versionOf } from '../domain/instance-version';
import type { RestoreImages } from '../domain/restore-images';
import type { RowAction } from '../sheets/sheet-types';
import type { InstanceChange, InstanceImage } from '../store/change-journal';

/**
 * What undoes a load, worked out from what each of its rows changed (store/change-journal.ts).
 * Each row's own instance (its sub-transaction's resource) gets one inverse row, from the load's
 * net effect on it: made -> delete; changed -> modify back to its fields before the load;
 * deleted -> add again, under its pkid, with its data and at its node. What a workflow did beside
 * it (a device line, a number made Used, a line on a phone) is undone by the inverse row's own
 * workflow, as a load would do it, and put back exactly (domain/restore-images.ts). The rows run
 * in the reverse of the load's order, so a row that took what an earlier row freed gives it back
 * before that earlier row takes it again.
 */
export interface RevertStep {
  pkid: string;
  modelType: string;
  action: RowAction;
  /** Where the row runs: the instance's node after the load (its node before it, for an add). */
  hierarchyPkid: string;
  /** The row's fields: before the load (modify, add), as the load left them (delete). */
  data: JsonObject;
  recreate: boolean;
  /** The version its own last row left it at (null for an add: it is gone). */
  afterVersion: string | null;
  /**
   * A later row of the load changed it beside its own instance (a phone its line went on): what
   * the load left it at is not kept, so the plan cannot compare; the revert's own earlier rows put
   * it back to `afterVersion` before its row runs, and the row checks that then.
   */
  shared: boolean;
  /** Its data as its own last row left it (null for an add: it is gone). */
  after: JsonObject | null;
  restore: RestoreImages;
}

/** A row of the load, as it was run: its place, status and what it changed. */
export interface ChangedRow {
  id: number;
  status: string;
  resourcePkid: string | null;
  changes: InstanceChange[] | null;
}

interface Net {
  pkid: string;
  modelType: string;
  before: InstanceImage | null;
  after: { hierarchyPkid: string; data: JsonObject } | null;
  lastRow: number;
  /** What the workflow of its first row changed beside it, as it was before. */
  sides: RestoreImages['sides'];
}

export class RevertSteps {
  private readonly targets = new Map<string, Net>();
  /** The last row that wrote each instance beside its own: a target written so after its own last row is shared. */
  private readonly sideWrites = new Map<string, number>();
  /** Rows that succeeded without a record of what they changed (loaded before reverts were kept), or of their own instance. */
  unrecorded = 0;
  /** Rows that failed: they changed nothing, and nothing is reverted for them. */
  failed = 0;

  add(row: ChangedRow): void {
    if (row.status !== 'Success') {
      this.failed += 1;
      return;
    }
    if (row.changes === null) {
      // A row that changed nothing (a modify to the same values) has nothing to revert either.
      if (row.resourcePkid !== null) this.unrecorded += 1;
      return;
    }
    const sides: RestoreImages['sides'] = [];
    let own: InstanceChange | undefined;
    for (const change of row.changes) {
      if (change.pkid === row.resourcePkid) own = change;
      else {
        this.sideWrites.set(change.pkid, row.id);
        if (change.before) sides.push({ pkid: change.pkid, before: change.before });
      }
    }
    // A workflow that never wrote the row's own instance leaves nothing this revert knows to undo.
    if (!own || own.after === undefined) {
      this.unrecorded += 1;
      return;
    }
    const known = this.targets.get(own.pkid);
    if (known) {
      known.after = own.after;
      known.lastRow = row.id;
    } else {
      this.targets.set(own.pkid, {
        pkid: own.pkid,
        modelType: own.modelType,
        before: own.before,
        after: own.after,
        lastRow: row.id,
        sides,
      });
    }
  }

  /** The inverse rows, last row of the load first. */
  steps(): RevertStep[] {
    const nets = [...this.targets.values()].sort((a, b) => b.lastRow - a.lastRow);
    const steps: RevertStep[] = [];
    for (const net of nets) {
      const step = this.stepOf(net);
      if (step) steps.push(step);
    }
    return steps;
  }

  private stepOf(net: Net): RevertStep | undefined {
    const { before, after, pkid, modelType } = net;
    const shared = (this.sideWrites.get(pkid) ?? 0) > net.lastRow;
    const common = {
      ...{ pkid, modelType, shared, restore: { before, sides: net.sides } },
      afterVersion: after ? versionOf(after) : null,
      after: after?.data ?? null,
    };
    if (before === null) {
      // Made and removed again by the same load: nothing of it is left to undo.
      if (after === null) return undefined;
      return { ...common, action: 'delete', hierarchyPkid: after.hierarchyPkid, data: after.data, recreate: false };
    }
    if (after === null) return { ...common, action: 'add', hierarchyPkid: before.hierarchyPkid, data: before.data, recreate: true };
    if (after.hierarchyPkid === before.hierarchyPkid && versionOf(after) === versionOf(before)) return undefined;
    return { ...common, action: 'modify', hierarchyPkid: after.hierarchyPkid, data: before.data, recreate: false };
  }
}
