import type { JsonObject } from '../api-types';
import { businessKeyOf } from '../domain/business-key';
import { isWithin } from '../domain/hierarchy';
import type { Store } from '../domain/store';
import { badParameter, notFound } from '../errors';
import type { ModelDef } from '../models/types';
import type { InstanceRecord } from '../store/instances-repo';
import type { NodeRow } from '../store/nodes-repo';

/**
 * Finding the instances that shape another model's payloads or forms (Configuration Templates,
 * Field Display Policies) and Macros: at the caller's node, then each ancestor up to sys; the
 * nearest wins, so a site can shadow a customer's template of the same name.
 */

/** The nearest instance of `model` named `name`; `accept` skips candidates (e.g. another target). */
export function nearestByName(
  store: Store,
  model: ModelDef,
  node: NodeRow,
  name: string,
  accept: (record: InstanceRecord) => boolean = () => true,
  extraKey: JsonObject = {},
): InstanceRecord | undefined {
  const nodes = store.nodes.lineage(node).reverse();
  for (const at of nodes) {
    // Built from the model's own key, so a key that one day includes target_model_type still matches.
    const key = businessKeyOf(model, { ...extraKey, name }, at.pkid);
    const found = store.instances.findByKey(model.modelType, key).find(accept);
    if (found) return found;
  }
  return undefined;
}

export interface ShaperParams {
  /** Query parameter names, for messages: e.g. `template` and `template_name`. */
  pkidParam: string;
  nameParam: string;
}

const given = (query: URLSearchParams, name: string): string | null => {
  const value = query.get(name)?.trim();
  return value ? value : null;
};

/**
 * The shaper the query names by pkid (first) or by name, checked to target `target`; undefined
 * when the query names none. Named but not found at the node or above: 404 naming it.
 */
export function namedShaper(
  store: Store,
  shaper: ModelDef,
  target: ModelDef,
  node: NodeRow,
  query: URLSearchParams,
  params: ShaperParams,
): InstanceRecord | undefined {
  const pkid = given(query, params.pkidParam);
  const name = given(query, params.nameParam);
  let found: InstanceRecord | undefined;
  if (pkid) {
    const record = store.instances.get(pkid);
    const reachable = record && record.modelType === shaper.modelType && isWithin(node.path, record.hierarchyPath);
    if (!reachable) throw notFound(`${shaper.title} ${pkid} was not found at ${node.path} or above.`);
    found = record;
  } else if (name) {
    // One made for another model under that name is found too, so the refusal can say so.
    found =
      nearestByName(store, shaper, node, name, undefined, { target_model_type: target.modelType }) ??
      namedForAnotherModel(store, shaper, node, name);
    if (!found) throw notFound(`${shaper.title} '${name}' was not found at ${node.path} or above.`);
  }
  if (found) checkTarget(shaper, target, found, pkid ? params.pkidParam : params.nameParam);
  return found;
}

function namedForAnotherModel(store: Store, shaper: ModelDef, node: NodeRow, name: string): InstanceRecord | undefined {
  const lineage = store.nodes.lineage(node).map((row) => row.pkid);
  const row = store
    .statement(
      `SELECT pkid FROM instances WHERE model_type = ? AND json_extract(data, '$.name') = ?
       AND hierarchy_pkid IN (${lineage.map(() => '?').join(',')}) LIMIT 1`,
    )
    .get(shaper.modelType, name, ...lineage) as { pkid: string } | undefined;
  return row ? store.instances.get(row.pkid) : undefined;
}

function checkTarget(shaper: ModelDef, target: ModelDef, record: InstanceRecord, param: string): void {
  const targetType = record.data.target_model_type;
  if (targetType !== target.modelType) {
    throw badParameter(
      `${shaper.title} '${String(record.data.name)}' is for ${String(targetType)}, not ${target.modelType}: choose one made for ${target.modelType}.`,
      param,
    );
  }
}
