import type { JsonObject } from '../api-types';
import type { Store } from '../domain/store';
import { fieldDisplayPolicy } from '../models/field-display-policy';
import type { ModelDef } from '../models/types';
import type { NodeRow } from '../store/nodes-repo';
import { applyPolicy } from './policy-view';
import { namedShaper, nearestByName } from './shaper-lookup';

export interface FormView {
  /** The draft-03 schema with the policy applied. */
  schema: JsonObject;
  /** The form's starting data (defaults, policy defaults). */
  data: JsonObject;
  /** Added to the add/ answer's meta (the policy used, its groups). */
  meta: JsonObject;
}

/** The policy a form uses when the request names none. */
export const DEFAULT_POLICY = 'default';

/**
 * The `add/` form of a model with the Field Display Policy named by `policy` (pkid) or
 * `policy_name`, else the nearest policy named `default` for this model, applied; with neither,
 * the plain form. Validation never reads a policy, so nothing here can relax a required field.
 */
export function formView(store: Store, model: ModelDef, node: NodeRow, query: URLSearchParams, plain: FormView): FormView {
  const named = namedShaper(store, fieldDisplayPolicy, model, node, query, { pkidParam: 'policy', nameParam: 'policy_name' });
  // A `default` made for another model is passed over, so each model finds its own.
  const policy =
    named ??
    nearestByName(store, fieldDisplayPolicy, node, DEFAULT_POLICY, (record) => record.data.target_model_type === model.modelType, {
      target_model_type: model.modelType,
    });
  return policy ? applyPolicy(model, policy, plain) : plain;
}
