import type { FieldDef, FieldType, ModelDef } from '../models/types';
import { searchError } from './search-lexer';
import type { Clause } from './search-parser';

/** A field a clause may match: its JSON path (built from registry names only) and its kind. */
export interface SearchField {
  /** `$.pattern` or `$.callForwardAll.destination`; every segment is a registry field name. */
  jsonPath: string;
  boolean: boolean;
}

const typesOf = (field: FieldDef): FieldType[] => (Array.isArray(field.type) ? field.type : [field.type]);

function fieldNames(fields: Record<string, FieldDef>): string {
  const names = Object.entries(fields)
    .filter(([, field]) => !field.writeOnly)
    .map(([name]) => name);
  return names.length > 12 ? `${names.slice(0, 12).join(', ')}...` : names.join(', ');
}

function unknownField(clause: Clause, segment: string, owner: string, fields: Record<string, FieldDef>): never {
  throw searchError(clause.position, `${segment} is not a field of ${owner}; fields are ${fieldNames(fields)}.`, 'unknown-field');
}

/**
 * Resolves a clause's field against the model. Request text never reaches the SQL: each path
 * segment must be a key of the registry's field map, and the JSON path is rebuilt from those
 * keys. Write-only fields (passwords) are not searchable, as if they did not exist.
 */
export function resolveField(model: ModelDef, clause: Clause): SearchField {
  const segments = clause.field.split('.');
  let fields = model.fields;
  let owner = model.modelType;
  let field: FieldDef | undefined;
  const path: string[] = [];
  for (const segment of segments) {
    field = Object.hasOwn(fields, segment) ? fields[segment] : undefined;
    if (!field || field.writeOnly) unknownField(clause, segment, owner, fields);
    path.push(segment);
    if (path.length < segments.length) {
      if (!field.properties)
        throw searchError(clause.position, `${path.join('.')} of ${model.modelType} has no fields below it.`, 'unknown-field');
      fields = field.properties;
      owner = `${model.modelType} ${path.join('.')}`;
    }
  }
  if (!field) unknownField(clause, clause.field, owner, fields);
  const types = typesOf(field);
  if (types.includes('object') && field.properties) {
    throw searchError(
      clause.position,
      `${clause.field} is an object; search one of its fields: ${Object.keys(field.properties)
        .map((name) => `${clause.field}.${name}`)
        .join(', ')}.`,
    );
  }
  if (types.includes('array') || types.includes('object')) {
    throw searchError(clause.position, `${clause.field} is a list; search can match only single values.`);
  }
  return { jsonPath: `$.${path.join('.')}`, boolean: types.every((type) => type === 'boolean' || type === 'null') };
}
