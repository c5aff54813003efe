import { isJsonObject, type JsonObject } from '../api-types';
import { mergeData } from '../domain/instance-ops';
import type { Store } from '../domain/store';
import { configurationTemplate } from '../models/configuration-template';
import { macro as macroModel } from '../models/macro';
import type { ModelDef } from '../models/types';
import type { InstanceRecord } from '../store/instances-repo';
import type { NodeRow } from '../store/nodes-repo';
import { namedShaper, nearestByName } from './shaper-lookup';
import { expandTemplate } from './template-expand';

/**
 * Applies the Configuration Template named by `template` (pkid) or `template_name` to a POST or
 * PUT payload, before the payload is validated (so whatever the template builds is validated
 * like the caller's own values). The caller's explicit values always win; see README.md.
 */
export function applyConfigurationTemplate(
  store: Store,
  model: ModelDef,
  node: NodeRow,
  query: URLSearchParams,
  payload: JsonObject,
  existing?: JsonObject,
): JsonObject {
  return applyTemplateRecord(store, model, node, findConfigurationTemplate(store, model, node, query), payload, existing);
}

/** The template a query names (`template` or `template_name`), checked to target `model`; 404 when named but absent. */
export function findConfigurationTemplate(
  store: Store,
  model: ModelDef,
  node: NodeRow,
  query: URLSearchParams,
): InstanceRecord | undefined {
  return namedShaper(store, configurationTemplate, model, node, query, { pkidParam: 'template', nameParam: 'template_name' });
}

/** How a caller finds the template a query names: directly, or through a cache (`templateCache`). */
export type TemplateFinder = (store: Store, model: ModelDef, node: NodeRow, query: URLSearchParams) => InstanceRecord | undefined;

/**
 * A finder that looks each template up once (per model, node and query), its refusal (a 404, a
 * template for another model) included: for the rows of one validation or one batch of a load,
 * which name the same template again and again (a look-up is one query per level of the tree).
 */
export function templateCache(): TemplateFinder {
  const known = new Map<string, { record?: InstanceRecord; refusal?: unknown }>();
  return (store, model, node, query) => {
    const key = `${model.modelType}\u0000${node.pkid}\u0000${query.toString()}`;
    let found = known.get(key);
    if (!found) {
      try {
        found = { record: findConfigurationTemplate(store, model, node, query) };
      } catch (error) {
        found = { refusal: error };
      }
      known.set(key, found);
    }
    if (found.refusal !== undefined) throw found.refusal;
    return found.record;
  };
}

/**
 * Applies a template already found (`findConfigurationTemplate`): callers that apply one
 * template to many rows look it up once.
 */
export function applyTemplateRecord(
  store: Store,
  model: ModelDef,
  node: NodeRow,
  found: InstanceRecord | undefined,
  payload: JsonObject,
  existing?: JsonObject,
): JsonObject {
  if (!found) return payload;
  const foreach = typeof found.data.foreach === 'string' && found.data.foreach.trim() !== '' ? found.data.foreach.trim() : null;
  const values = expandTemplate(isJsonObject(found.data.template) ? found.data.template : {}, {
    // On PUT the template sees the instance as it will be: stored values under the caller's.
    input: existing ? mergeData(existing, payload) : payload,
    foreach,
    macro: macroLookup(store, node),
    where: node.path,
    now: store.now(),
  });
  const explicit = withoutHelperField(model, payload, foreach);
  return found.data.merge_strategy === 'replace' ? { ...values, ...explicit } : mergeData(values, explicit);
}

/** The foreach list is input for the template only: it must not reach validation as an unknown field. */
function withoutHelperField(model: ModelDef, payload: JsonObject, foreach: string | null): JsonObject {
  if (!foreach || Object.hasOwn(model.fields, foreach) || !Object.hasOwn(payload, foreach)) return payload;
  const rest = { ...payload };
  delete rest[foreach];
  return rest;
}

/** data/Macro texts by name, nearest to the node first, each looked up once per application. */
function macroLookup(store: Store, node: NodeRow): (name: string) => string | undefined {
  const known = new Map<string, string | undefined>();
  return (name) => {
    if (!known.has(name)) {
      const value = nearestByName(store, macroModel, node, name)?.data.value;
      known.set(name, value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value));
    }
    return known.get(name);
  };
}
