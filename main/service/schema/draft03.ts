import type { JsonObject } from '../api-types';
import type { FieldDef, ModelDef } from '../models/types';

/** The model's fields as a JSON Schema draft-03 document, `required: true` on each property. */
export function draft03Schema(model: ModelDef): JsonObject {
  return {
    $schema: 'http://json-schema.org/draft-03/schema#',
    type: 'object',
    title: model.title,
    description: model.description,
    properties: propertiesOf(model.fields),
  };
}

function propertiesOf(fields: Record<string, FieldDef>): JsonObject {
  const properties: JsonObject = {};
  for (const [name, field] of Object.entries(fields)) properties[name] = fieldSchema(field);
  return properties;
}

function fieldSchema(field: FieldDef): JsonObject {
  const schema: JsonObject = { title: field.title, type: field.type };
  if (field.description) schema.description = field.description;
  if (field.required) schema.required = true;
  if (field.default !== undefined) schema.default = field.default;
  if (field.pattern) schema.pattern = field.pattern;
  if (field.minLength !== undefined) schema.minLength = field.minLength;
  if (field.maxLength !== undefined) schema.maxLength = field.maxLength;
  if (field.choices) schema.choices = field.choices.map((choice) => ({ value: choice.value, title: choice.title }));
  if (field.format) schema.format = field.format;
  if (field.readonly) schema.readonly = true;
  if (field.writeOnly) schema.format = 'password';
  if (field.properties) schema.properties = propertiesOf(field.properties);
  if (field.items) schema.items = fieldSchema(field.items);
  if (field.minItems !== undefined) schema.minItems = field.minItems;
  if (field.maxItems !== undefined) schema.maxItems = field.maxItems;
  return schema;
}
