import type { JsonObject } from '../api-types';
import type { Store } from '../domain/store';
import type { ModelDef } from '../models/types';
import type { NodeRow } from '../store/nodes-repo';

export interface FormView {
  /** The draft-03 schema with the policy applied. */
  schema: JsonObject;
  /** The form's starting data (defaults, policy defaults). */
  data: JsonObject;
  /** Added to the add/ answer's meta (the policy used, its groups). */
  meta: JsonObject;
}

/**
 * The `add/` form of a model with the Field Display Policy named by `policy` (pkid) or
 * `policy_name`, else the policy named `default`, applied. STUB: returns the plain form.
 */
export function formView(_store: Store, _model: ModelDef, _node: NodeRow, _query: URLSearchParams, plain: FormView): FormView {
  return plain;
}
