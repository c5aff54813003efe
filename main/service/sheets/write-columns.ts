import { isJsonObject, type Json, type JsonObject } from '../api-types';
import type { FieldDef, FieldType, ModelDef } from '../models/types';
import { propertyAt } from '../templates/policy-view';

/**
 * The columns of a written sheet (decisions.md, "Bulk load sheets"): the meta columns, then one
 * column per scalar field in model order, named in dot notation with 0-based array indexes, so
 * the reader resolves every header it wrote.
 */
export interface SheetColumn {
  /** Row 2 of the directive layout (row 1 of the compact one): meta column name or field path. */
  name: string;
  /** Row 3: the Field Display Policy group holding the field, else empty. */
  group: string;
  /** Row 4: the title a person reads, ` *` appended when the field is required. */
  title: string;
  /** The field path a field column fills; absent on meta columns. */
  path?: string;
  /** Text format ('@'): typing into the cell keeps a leading +, 0 or = as text. */
  text: boolean;
  /** Allowed values, offered as a drop-down list. */
  choices?: string[];
}

export const META = { hierarchy: 'Hierarchy Node', action: 'Action', pkid: 'Unique Identifier (pkid)' } as const;
export const ROW_ACTIONS = ['add', 'modify', 'delete'];

/** How a sheet shows a model: its draft-03 schema after the Field Display Policy, and the policy's groups. */
export interface ColumnLook {
  schema: JsonObject;
  groups: { title: string; fields: string[] }[];
}

export interface ColumnOptions {
  /** Templates leave out what the policy hides (never a required field); exports keep all data. */
  dropHidden: boolean;
  /** Templates offer write-only fields (passwords are loaded); exports never have their values. */
  writeOnly: boolean;
  /** Per array path (`lines`, `groups.0.fields`), how many elements the widest instance has. */
  widths: Map<string, number>;
}

interface Walk extends ColumnOptions {
  look: ColumnLook;
}

export function metaColumns(): SheetColumn[] {
  const meta = (name: string, choices?: string[]): SheetColumn => ({
    name,
    group: '',
    title: name,
    text: true,
    ...(choices ? { choices } : {}),
  });
  return [meta(META.hierarchy), meta(META.action, ROW_ACTIONS), meta(META.pkid)];
}

/** Every column of a model's sheet: the meta columns, then its fields. */
export function sheetColumns(model: ModelDef, look: ColumnLook, options: ColumnOptions): SheetColumn[] {
  return [...metaColumns(), ...fieldColumns(model.fields, '', [], { ...options, look })];
}

function fieldColumns(fields: Record<string, FieldDef>, prefix: string, titles: string[], walk: Walk): SheetColumn[] {
  return Object.entries(fields).flatMap(([name, field]) => {
    // Computed fields are never taken from a sheet; write-only ones are never exported.
    if (field.readonly || (field.writeOnly && !walk.writeOnly)) return [];
    return columnsOf(field, `${prefix}${name}`, titles, walk, true);
  });
}

const typesOf = (field: FieldDef): FieldType[] => (Array.isArray(field.type) ? field.type : [field.type]);

/** `ownTitle` is false for an array element: `Lines 1 / Directory Number`, not `Lines 1 / Line / ...`. */
function columnsOf(field: FieldDef, path: string, titles: string[], walk: Walk, ownTitle: boolean): SheetColumn[] {
  const property = propertyAt(walk.look.schema, path);
  if (walk.dropHidden && property?.hidden === true && !field.required) return [];
  const title = typeof property?.title === 'string' ? property.title : field.title;
  const here = ownTitle ? [...titles, title] : titles;
  if (field.type === 'object' && field.properties) return fieldColumns(field.properties, `${path}.`, here, walk);
  if (field.type === 'array' && field.items) {
    const items = field.items;
    // One element's columns at least, so a person can fill in the first one.
    const width = Math.max(1, walk.widths.get(path) ?? 0);
    return Array.from({ length: width }, (_, index) => {
      const itemTitles = [...here.slice(0, -1), `${here[here.length - 1]} ${index + 1}`];
      return columnsOf(items, `${path}.${index}`, itemTitles, walk, false);
    }).flat();
  }
  return [leafColumn(field, path, here, walk.look)];
}

function leafColumn(field: FieldDef, path: string, titles: string[], look: ColumnLook): SheetColumn {
  const types = typesOf(field);
  // Text only when the field can hold nothing but text: a number stays a number elsewhere.
  const text = types.includes('string') && !types.some((type) => type === 'integer' || type === 'number' || type === 'boolean');
  const column: SheetColumn = {
    name: path,
    group: groupOf(path, look),
    title: `${titles.join(' / ')}${field.required ? ' *' : ''}`,
    path,
    text,
  };
  if (field.choices) column.choices = field.choices.map((choice) => choice.value);
  return column;
}

/** The first policy group that lists the field or one of its parents. */
function groupOf(path: string, look: ColumnLook): string {
  const group = look.groups.find((candidate) => candidate.fields.some((field) => path === field || path.startsWith(`${field}.`)));
  return group?.title ?? '';
}

/** The groups of a form's meta (`field_groups`), when a policy was applied. */
export function groupsOf(meta: JsonObject): ColumnLook['groups'] {
  const groups = meta.field_groups;
  if (!Array.isArray(groups)) return [];
  return groups.filter(isJsonObject).map((group) => ({
    title: typeof group.title === 'string' ? group.title : '',
    fields: Array.isArray(group.fields) ? group.fields.filter((field): field is string => typeof field === 'string') : [],
  }));
}

/** How wide each array of the exported instances is, per concrete path (nested arrays too). */
export function arrayWidths(model: ModelDef, rows: Iterable<JsonObject>): Map<string, number> {
  const widths = new Map<string, number>();
  const visit = (field: FieldDef, value: Json | undefined, path: string): void => {
    if (field.type === 'object' && field.properties && isJsonObject(value)) {
      for (const [name, child] of Object.entries(field.properties)) visit(child, value[name], `${path}.${name}`);
    } else if (field.type === 'array' && field.items && Array.isArray(value)) {
      widths.set(path, Math.max(widths.get(path) ?? 0, value.length));
      const items = field.items;
      value.forEach((item, index) => visit(items, item, `${path}.${index}`));
    }
  };
  for (const data of rows) {
    for (const [name, field] of Object.entries(model.fields)) visit(field, data[name], name);
  }
  return widths;
}
