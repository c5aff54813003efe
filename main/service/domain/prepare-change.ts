import { isJsonObject, type JsonObject } from '../api-types';
import { hashPassword } from '../auth/passwords';
import { mergeData } from './instance-ops';
import type { Store } from './store';
import type { ModelDef } from '../models/types';
import { checkRequired, validateData, withDefaults } from '../schema/validate';
import type { InstanceRecord } from '../store/instances-repo';
import type { NodeRow } from '../store/nodes-repo';
import { applyTemplateRecord, findConfigurationTemplate, type TemplateFinder } from '../templates/configuration-template';
import { guardUserData, type Caller } from './guards';

/**
 * What turns a caller's `data` into what a workflow stores, the same for a POST or PUT and for a
 * bulk-load row: the template fills in (the caller's values win), the model's schema checks
 * every field, defaults (create) or the stored instance (modify) complete it, required fields
 * are checked, and nobody gives a user more than they have.
 */
function templated(
  store: Store,
  model: ModelDef,
  node: NodeRow,
  raw: unknown,
  query: URLSearchParams,
  find: TemplateFinder,
  existing?: JsonObject,
): JsonObject {
  // A payload that is not even an object fails validation before a template is looked up.
  if (!isJsonObject(raw)) return validateData(model, raw);
  return applyTemplateRecord(store, model, node, find(store, model, node, query), raw, existing);
}

export function prepareCreate(
  store: Store,
  caller: Caller,
  model: ModelDef,
  node: NodeRow,
  raw: unknown,
  query: URLSearchParams,
  find: TemplateFinder = findConfigurationTemplate,
): JsonObject {
  const data = withDefaults(model, validateData(model, templated(store, model, node, raw, query, find)));
  guardUserData(caller, model.modelType, data, node);
  checkRequired(model, data);
  return data;
}

export function prepareModify(
  store: Store,
  caller: Caller,
  model: ModelDef,
  existing: InstanceRecord,
  current: NodeRow,
  target: NodeRow,
  raw: unknown,
  query: URLSearchParams,
  find: TemplateFinder = findConfigurationTemplate,
): JsonObject {
  const changes = validateData(model, templated(store, model, current, raw, query, find, existing.data));
  const data = mergeData(existing.data, changes);
  guardUserData(caller, model.modelType, data, target);
  checkRequired(model, data);
  return data;
}

/**
 * Takes the write-only fields (passwords) out of the data, so they are never stored as data:
 * what was given, by the secret's name (`passwordHash` once hashed).
 */
export function takeWriteOnly(model: ModelDef, data: JsonObject): Record<string, string> {
  const given: Record<string, string> = {};
  for (const [name, field] of Object.entries(model.fields)) {
    if (!field.writeOnly || data[name] === undefined) continue;
    const value = data[name];
    delete data[name];
    if (typeof value === 'string' && value !== '') given[`${name}Hash`] = value;
  }
  return given;
}

/** Before a transaction: a password becomes a hash (scrypt, on the thread pool). */
export async function extractSecrets(model: ModelDef, data: JsonObject): Promise<Record<string, string>> {
  const secrets = takeWriteOnly(model, data);
  for (const [name, value] of Object.entries(secrets)) secrets[name] = await hashPassword(value);
  return secrets;
}
