import { isJsonObject, type Json, type JsonObject } from '../api-types';
import type { ModelDef } from '../models/types';
import type { InstanceRecord } from '../store/instances-repo';
import type { FormView } from './field-display-policy';

/**
 * A Field Display Policy applied to a form: it changes how fields are shown, never what the
 * model accepts. Hidden fields stay in the schema (marked `hidden: true`, `required` kept), so
 * a client can still send them and validation, which reads the model, is unchanged.
 */
interface Override {
  field: string;
  title?: string;
  helpText?: string;
  hidden: boolean;
  readonly: boolean;
  inputType?: string;
  default?: Json;
}

/** Title of the group that collects the fields no policy group lists. */
export const OTHER_GROUP = 'Other';

export function applyPolicy(model: ModelDef, policy: InstanceRecord, plain: FormView): FormView {
  const schema = structuredClone(plain.schema);
  const data = structuredClone(plain.data);
  const hidden = new Set<string>();
  const ignored: string[] = [];
  for (const override of readOverrides(policy.data.field_overrides)) {
    const property = propertyAt(schema, override.field);
    if (!property) {
      ignored.push(override.field);
      continue;
    }
    applyOverride(property, override);
    if (override.hidden) hidden.add(override.field);
    if (override.default !== undefined) setAt(data, override.field, override.default);
  }
  const described: JsonObject = { pkid: policy.pkid, name: policy.data.name ?? null, hierarchy: policy.hierarchyPath };
  // A policy written for an older model can name fields that are gone: shown, not fatal.
  if (ignored.length > 0) described.ignored_fields = ignored;
  const meta: JsonObject = { field_display_policy: described, field_groups: fieldGroups(model, schema, policy.data.groups, hidden) };
  return { schema, data, meta: { ...plain.meta, ...meta } };
}

function readOverrides(value: Json | undefined): Override[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isJsonObject).flatMap((entry) => {
    if (typeof entry.field !== 'string' || entry.field === '') return [];
    const text = (key: string): string | undefined => (typeof entry[key] === 'string' ? (entry[key] as string) : undefined);
    return [
      {
        field: entry.field,
        title: text('title'),
        helpText: text('help_text'),
        hidden: entry.hidden === true,
        readonly: entry.readonly === true,
        inputType: text('input_type'),
        // null is "no default": the stored override fills every key, given or not.
        default: entry.default === null ? undefined : entry.default,
      },
    ];
  });
}

function applyOverride(property: JsonObject, override: Override): void {
  if (override.title) property.title = override.title;
  if (override.helpText) property.description = override.helpText;
  if (override.hidden) property.hidden = true;
  // Only ever adds read-only: a policy cannot make a computed field editable.
  if (override.readonly) property.readonly = true;
  if (override.inputType) property.input_type = override.inputType;
  if (override.default !== undefined) property.default = override.default;
}

/** The schema property at a dot path: names go through `properties`, 0-based indexes through `items`. */
export function propertyAt(schema: JsonObject, path: string): JsonObject | undefined {
  let current: Json | undefined = schema;
  for (const segment of path.split('.')) {
    if (!isJsonObject(current)) return undefined;
    const properties: Json | undefined = current.properties;
    if (/^\d+$/.test(segment) && isJsonObject(current.items)) current = current.items;
    else current = isJsonObject(properties) && Object.hasOwn(properties, segment) ? properties[segment] : undefined;
  }
  return isJsonObject(current) ? current : undefined;
}

/** Puts a policy default into the form's starting data; nested names build nested objects. */
function setAt(data: JsonObject, path: string, value: Json): void {
  const segments = path.split('.');
  let current = data;
  for (const segment of segments.slice(0, -1)) {
    const next = current[segment];
    if (Array.isArray(next) || /^\d+$/.test(segment)) return;
    if (!isJsonObject(next)) current[segment] = {};
    current = current[segment] as JsonObject;
  }
  current[segments[segments.length - 1]] = value;
}

/**
 * The policy's groups in order, each with its fields that exist and are not hidden, then a
 * trailing group with every other visible top-level field in model order.
 */
function fieldGroups(model: ModelDef, schema: JsonObject, groups: Json | undefined, hidden: Set<string>): JsonObject[] {
  const isHidden = (field: string): boolean => [...hidden].some((name) => field === name || field.startsWith(`${name}.`));
  const placed = new Set<string>([...hidden].filter((field) => !field.includes('.')));
  const result: JsonObject[] = [];
  for (const group of Array.isArray(groups) ? groups.filter(isJsonObject) : []) {
    const listed = Array.isArray(group.fields) ? group.fields.filter((field): field is string => typeof field === 'string') : [];
    listed.forEach((field) => placed.add(field.split('.')[0]));
    const fields = listed.filter((field) => propertyAt(schema, field) && !isHidden(field));
    if (fields.length > 0) result.push({ title: typeof group.title === 'string' ? group.title : '', fields });
  }
  const rest = Object.keys(model.fields).filter((field) => !placed.has(field));
  if (rest.length > 0) result.push({ title: OTHER_GROUP, fields: rest });
  return result;
}
