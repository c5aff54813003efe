import type { ApiClient } from '../../api/api-client';
import type { Instance, ListAnswer } from '../../../../main/service/contract/resource-api';

/**
 * The shapers a form offers: Configuration Templates (what saving fills in) and Field Display
 * Policies (how the form is laid out), each made for the form's model at its node and above.
 */

/** Where the form's schema is read: the model and node (an edit's come from its instance). */
export interface FormSource {
  modelType: string;
  hierarchy: string;
}

/** A Configuration Template the form can apply (data/ConfigurationTemplate). */
export interface TemplateChoice {
  pkid: string;
  name: string;
  hierarchy: string;
  description?: string;
  template: unknown;
}

/** A Field Display Policy (data/FieldDisplayPolicy) the form can be laid out with. */
export interface PolicyChoice {
  pkid: string;
  name: string;
  hierarchy: string;
  description?: string;
}

export async function templatesFor(client: ApiClient, source: FormSource): Promise<TemplateChoice[]> {
  const list = await client.get<ListAnswer>('/api/data/ConfigurationTemplate/', upTheTree(source));
  return list.resources.map((instance) => ({ ...described(instance), template: instance.data.template }));
}

export async function policiesFor(client: ApiClient, source: FormSource): Promise<PolicyChoice[]> {
  const list = await client.get<ListAnswer>('/api/data/FieldDisplayPolicy/', upTheTree(source));
  return list.resources.map(described);
}

function upTheTree(source: FormSource) {
  return {
    hierarchy: source.hierarchy,
    traversal: 'up',
    summary: false,
    limit: 500,
    order_by: 'name',
    filter_field: 'target_model_type',
    filter_condition: 'equals',
    filter_text: source.modelType,
    ignore_case: false,
  };
}

function described(instance: Instance): PolicyChoice {
  const data = instance.data;
  return {
    pkid: instance.meta.pkid,
    name: typeof data.name === 'string' ? data.name : instance.meta.pkid,
    hierarchy: instance.meta.hierarchy,
    description: typeof data.description === 'string' ? data.description : undefined,
  };
}
