/**
 * Checks a value against the JSON Schemas of the published description: the keywords it uses
 * (type, const, enum, properties, required, items, additionalProperties, minimum, maximum,
 * minLength, pattern, minItems, $ref to components). Answers the first mismatch, or undefined.
 */
export type Schema = { [keyword: string]: unknown };

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;

function typeMatches(value: unknown, type: unknown): boolean {
  const types = Array.isArray(type) ? (type as string[]) : [type as string];
  const actual = typeOf(value);
  return types.some((t) => t === actual || (t === 'number' && actual === 'integer'));
}

export function mismatch(value: unknown, schema: Schema, schemas: Record<string, Schema>, at = '$'): string | undefined {
  if (typeof schema.$ref === 'string') return mismatch(value, schemas[schema.$ref.split('/').at(-1) as string], schemas, at);
  if ('const' in schema && value !== schema.const) return `${at}: ${JSON.stringify(value)} is not ${JSON.stringify(schema.const)}`;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    return `${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`;
  if (schema.type !== undefined && !typeMatches(value, schema.type)) return `${at}: ${typeOf(value)} is not ${JSON.stringify(schema.type)}`;
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return `${at}: ${value} < ${schema.minimum}`;
    if (typeof schema.maximum === 'number' && value > schema.maximum) return `${at}: ${value} > ${schema.maximum}`;
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) return `${at}: shorter than ${schema.minLength}`;
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
      return `${at}: does not match ${schema.pattern}`;
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) return `${at}: fewer than ${schema.minItems} items`;
    if (schema.items !== undefined)
      for (const [index, item] of value.entries()) {
        const found = mismatch(item, schema.items as Schema, schemas, `${at}[${index}]`);
        if (found) return found;
      }
  }
  if (typeOf(value) === 'object') {
    const record = value as Record<string, unknown>;
    for (const name of (schema.required as string[] | undefined) ?? []) if (!(name in record)) return `${at}.${name}: missing`;
    const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
    for (const [name, item] of Object.entries(record)) {
      const sub =
        properties[name] ?? (typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as Schema) : undefined);
      if (sub === undefined) {
        if (schema.additionalProperties === false) return `${at}.${name}: not allowed`;
        continue;
      }
      const found = mismatch(item, sub, schemas, `${at}.${name}`);
      if (found) return found;
    }
  }
  return undefined;
}
