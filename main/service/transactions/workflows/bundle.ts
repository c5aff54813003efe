import type { JsonObject } from '../../api-types';
import { bundleChangeProblems, bundleParts } from '../../domain/rules/bundles';
import { throwIfProblem } from '../../domain/rules/problem';
import { insertInstance, replaceInstance, requireNode } from '../../domain/instance-ops';
import { newPkid } from '../../store/ids';
import { linkTo } from '../../store/instances-repo';
import { requireModel } from '../../models/registry';
import { lineRelationWorkflow } from './line-relation';
import { addDeviceLine, attachLine, markNumberUsed, notInInventory } from './line-parts';
import type { Workflow } from './types';

/**
 * A bundle is a subscriber, a phone and a line made in one transaction: if the line cannot be
 * made (its number is Reserved, say) the subscriber and the phone are rolled back with it.
 */
const text = (data: JsonObject, field: string): string => String(data[field] ?? '');

export const bundleWorkflow: Workflow = {
  create(ctx, { store, model, node, pkid, data }) {
    const userid = text(data, 'userid');
    const device = text(data, 'device_name');
    const pattern = text(data, 'pattern');
    const { subscriber, phone, relation } = bundleParts(data);
    const subscriberPkid = ctx.step(`Add subscriber ${userid}`, () =>
      insertInstance(store, requireModel('relation/Subscriber'), node, subscriber),
    );
    const phonePkid = ctx.step(`Add phone ${device}`, () => insertInstance(store, requireModel('device/cucm/Phone'), node, phone));
    const relationModel = requireModel('relation/LineRelation');
    const relationPkid = ctx.step(`Add line ${pattern} on ${device}`, () => {
      const ownPkid = newPkid();
      const linePkid = addDeviceLine(store, node, relation, ownPkid);
      attachLine(store, node, device, pattern, '');
      return insertInstance(store, relationModel, node, relation, {
        pkid: ownPkid,
        links: { device: [linkTo(linePkid, 'device/cucm/Line')] },
      });
    });
    ctx.stepIf(`Mark ${pattern} Used in the internal number inventory`, notInInventory(store, node, pattern), () =>
      markNumberUsed(store, node, pattern, 'Device'),
    );
    ctx.step(`Save bundle ${userid}`, () =>
      insertInstance(store, model, node, data, {
        pkid,
        links: {
          device: [
            linkTo(subscriberPkid, 'relation/Subscriber'),
            linkTo(phonePkid, 'device/cucm/Phone'),
            linkTo(relationPkid, 'relation/LineRelation'),
          ],
        },
      }),
    );
    return { resourcePkid: pkid, state: 'Created' };
  },

  modify(ctx, { store, node, existing, data }) {
    throwIfProblem(bundleChangeProblems(existing.data, data)[0]);
    const [subscriberPkid, , relationPkid] = (existing.links.device ?? []).map((link) => link.pkid);
    ctx.step(`Update subscriber ${text(data, 'userid')} and line ${text(data, 'pattern')}`, () => {
      const subscriber = subscriberPkid ? store.instances.get(subscriberPkid) : undefined;
      if (subscriber) {
        replaceInstance(store, subscriber, { ...subscriber.data, firstname: text(data, 'firstname'), lastname: text(data, 'lastname') });
      }
      const relation = relationPkid ? store.instances.get(relationPkid) : undefined;
      if (relation) replaceInstance(store, relation, { ...relation.data, alertingName: text(data, 'alertingName') });
      replaceInstance(store, existing, data, { node });
    });
    return { resourcePkid: existing.pkid, state: 'Modified' };
  },

  remove(ctx, { store, existing }) {
    const [subscriberPkid, phonePkid, relationPkid] = (existing.links.device ?? []).map((link) => link.pkid);
    const relation = relationPkid ? store.instances.get(relationPkid) : undefined;
    if (relation) {
      lineRelationWorkflow.remove(ctx, { store, model: requireModel('relation/LineRelation'), existing: relation });
    }
    ctx.step(`Remove phone ${text(existing.data, 'device_name')} and subscriber ${text(existing.data, 'userid')}`, () => {
      requireNode(store, existing.hierarchyPkid);
      for (const pkid of [phonePkid, subscriberPkid, existing.pkid]) if (pkid) store.instances.delete(pkid);
    });
    return { resourcePkid: existing.pkid, state: 'Deleted' };
  },
};
