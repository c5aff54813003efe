import { insertInstance, replaceInstance, requireNode } from '../../domain/instance-ops';
import { assertUniqueKey } from '../../domain/rules/live-view';
import {
  addDeviceLine,
  attachLine,
  detachLine,
  deviceLineOf,
  lineDataOf,
  markNumberUsed,
  notInInventory,
  partitionOf,
  patternOf,
  releaseNumber,
} from './line-parts';
import { linkTo } from '../../store/instances-repo';
import type { Workflow } from './types';

/**
 * Add: the device line, the number marked Used in the inventory (skipped when the inventory
 * does not hold it), the line put on its phone, then the relation itself.
 * Delete: step 1 removes the device line, step 2 frees the number.
 */
export const lineRelationWorkflow: Workflow = {
  create(ctx, { store, model, node, pkid, data, previousLinks }) {
    const pattern = patternOf(data);
    const partition = partitionOf(data);
    // The relation's key is checked first, so a taken number fails before anything is written.
    let checkedKey: string | null | undefined;
    const linePkid = ctx.step(`Add device line ${pattern} at ${node.path}`, () => {
      checkedKey = assertUniqueKey(store, model, data, node, null);
      return addDeviceLine(store, node, data, pkid, previousLinks?.device?.[0]?.pkid);
    });
    ctx.stepIf(`Mark ${pattern} Used in the internal number inventory`, notInInventory(store, node, pattern), () =>
      markNumberUsed(store, node, pattern, String(data.usage ?? 'Device')),
    );
    const device = typeof data.summary_device === 'string' ? data.summary_device : '';
    ctx.stepIf(`Put line ${pattern} on device ${device}`, device ? null : 'no device was given.', () =>
      attachLine(store, node, device, pattern, partition),
    );
    ctx.step(`Save line relation ${pattern}`, () =>
      insertInstance(store, model, node, data, { pkid, links: { device: [linkTo(linePkid, 'device/cucm/Line')] }, checkedKey }),
    );
    return { resourcePkid: pkid, state: 'Created' };
  },

  modify(ctx, { store, model, node, existing, data }) {
    const before = existing.data;
    const oldPattern = patternOf(before);
    const newPattern = patternOf(data);
    const line = deviceLineOf(store, existing);
    ctx.step(`Update device line ${newPattern}`, () => {
      assertUniqueKey(store, model, data, node, existing.pkid);
      if (line) replaceInstance(store, line, { ...line.data, ...lineDataOf(data) });
    });
    const numberChanged = oldPattern !== newPattern;
    ctx.stepIf(
      `Move ${oldPattern} to ${newPattern} in the internal number inventory`,
      numberChanged ? null : 'the directory number did not change.',
      () => {
        releaseNumber(store, node, oldPattern);
        markNumberUsed(store, node, newPattern, String(data.usage ?? 'Device'));
      },
    );
    const oldDevice = String(before.summary_device ?? '');
    const newDevice = String(data.summary_device ?? '');
    const lineMoved = numberChanged || partitionOf(before) !== partitionOf(data) || oldDevice !== newDevice;
    ctx.stepIf(
      `Update the line on device ${newDevice || oldDevice}`,
      lineMoved && (oldDevice || newDevice) ? null : 'the device assignment did not change.',
      () => {
        if (oldDevice) detachLine(store, oldDevice, oldPattern, partitionOf(before));
        if (newDevice) attachLine(store, node, newDevice, newPattern, partitionOf(data));
      },
    );
    ctx.step(`Save line relation ${newPattern}`, () => replaceInstance(store, existing, data, { node }));
    return { resourcePkid: existing.pkid, state: 'Modified' };
  },

  remove(ctx, { store, existing }) {
    const pattern = patternOf(existing.data);
    const node = requireNode(store, existing.hierarchyPkid);
    ctx.step(`Remove device line ${pattern} from ${existing.hierarchyPath}`, () => {
      const line = deviceLineOf(store, existing);
      if (line) store.instances.delete(line.pkid);
      const device = String(existing.data.summary_device ?? '');
      if (device) detachLine(store, device, pattern, partitionOf(existing.data));
      store.instances.delete(existing.pkid);
    });
    ctx.stepIf(`Release ${pattern} in the internal number inventory`, notInInventory(store, node, pattern), () =>
      releaseNumber(store, node, pattern),
    );
    return { resourcePkid: existing.pkid, state: 'Deleted' };
  },
};
