import type { SchemaProperty } from '../../../../main/service/contract/resource-api';
import { propertyAt, visibleFields } from './schema-paths';

/** A section of the form: a Field Display Policy group, or every field of a plain form. */
export interface FieldGroup {
  title: string;
  fields: string[];
}

/** What `add/` answers besides the schema (decisions.md, templates/README.md). */
export interface FormMeta {
  title?: string;
  model_type?: string;
  summary_attrs?: { name: string; title: string }[];
  field_groups?: FieldGroup[];
  field_display_policy?: { pkid: string; name: string | null; hierarchy: string; ignored_fields?: string[] };
}

/**
 * The policy's groups, keeping fields the schema has and does not hide; a plain form gets one
 * group of its visible fields, with the nested objects after the plain ones so the simple
 * fields come first.
 */
export function groupsOf(schema: SchemaProperty, meta: FormMeta | undefined): FieldGroup[] {
  const listed = meta?.field_groups;
  if (Array.isArray(listed) && listed.length > 0) {
    return listed
      .map((group) => ({ title: group.title, fields: group.fields.filter((field) => isShown(schema, field)) }))
      .filter((group) => group.fields.length > 0);
  }
  const fields = visibleFields(schema);
  const simple = fields.filter(([, property]) => !property.properties && !property.items).map(([name]) => name);
  const compound = fields.filter(([, property]) => property.properties || property.items).map(([name]) => name);
  const groups: FieldGroup[] = [];
  if (simple.length > 0) groups.push({ title: 'Fields', fields: simple });
  if (compound.length > 0) groups.push({ title: 'Details', fields: compound });
  return groups;
}

function isShown(schema: SchemaProperty, field: string): boolean {
  const property = propertyAt(schema, field);
  return property !== undefined && !property.hidden;
}

/** Tabs only when sections would make the page long to scroll (more than three groups). */
export function usesTabs(groups: FieldGroup[]): boolean {
  return groups.length > 3;
}
