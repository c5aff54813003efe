import type { JsonObject } from '../api-types';
import type { Store } from '../domain/store';
import type { ModelDef } from '../models/types';
import type { NodeRow } from '../store/nodes-repo';

/**
 * `schema_rules=true`: the GUI rules (none are modelled yet) and the Field Display Policies
 * for this model that a caller at `node` can use: those at the node and up the tree.
 */
export function schemaRulesMeta(store: Store, model: ModelDef, node: NodeRow): JsonObject {
  const lineage = store.nodes.lineage(node).map((row) => row.pkid);
  const rows = store
    .statement(
      `SELECT pkid, json_extract(data, '$.name') AS name FROM instances
       WHERE model_type = 'data/FieldDisplayPolicy' AND json_extract(data, '$.target_model_type') = ?
       AND hierarchy_pkid IN (${lineage.map(() => '?').join(',')}) ORDER BY name`,
    )
    .all(model.modelType, ...lineage) as { pkid: string; name: string }[];
  return {
    gui_rules: [],
    field_display_policies: rows.map((row) => ({ pkid: row.pkid, name: row.name })),
  };
}
