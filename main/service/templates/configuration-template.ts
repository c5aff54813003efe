import type { JsonObject } from '../api-types';
import type { Store } from '../domain/store';
import type { ModelDef } from '../models/types';
import type { NodeRow } from '../store/nodes-repo';

/**
 * Applies the Configuration Template named by `template` (pkid) or `template_name` to a POST or
 * PUT payload. STUB: returns the payload unchanged until templates are implemented.
 */
export function applyConfigurationTemplate(
  _store: Store,
  _model: ModelDef,
  _node: NodeRow,
  _query: URLSearchParams,
  payload: JsonObject,
  _existing?: JsonObject,
): JsonObject {
  return payload;
}
