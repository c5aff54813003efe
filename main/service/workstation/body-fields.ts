import { isJsonObject, type Json, type JsonObject } from '../api-types';
import { ApiError, type FaultDetail } from '../errors';
import { jsonBody, type RequestContext } from '../request-context';

/**
 * The types of a `/workstation/` body's optional fields, checked before a route reads them: a
 * field of the wrong type (`"name": 123`, `"rows": null`) is 400 `validation-failed` naming it,
 * never taken as absent (issue 30, finding 11). `null` is a type of its own, allowed only where
 * listed.
 */
export type FieldKind = 'string' | 'boolean' | 'number' | 'array' | 'object' | 'null';

const isKind = (value: Json, kind: FieldKind): boolean => {
  switch (kind) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isJsonObject(value);
    default:
      return typeof value === kind;
  }
};

const named = (kind: FieldKind): string =>
  kind === 'array' ? 'a list' : kind === 'object' ? 'an object' : kind === 'null' ? 'null' : `a ${kind}`;

export function checkFieldTypes(body: JsonObject, kinds: Record<string, FieldKind | readonly FieldKind[]>): void {
  const problems: FaultDetail[] = [];
  for (const [field, expected] of Object.entries(kinds)) {
    const value = body[field];
    if (value === undefined) continue;
    const allowed: readonly FieldKind[] = typeof expected === 'string' ? [expected] : expected;
    if (!allowed.some((kind) => isKind(value, kind))) problems.push({ field, message: `must be ${allowed.map(named).join(' or ')}` });
  }
  if (problems.length > 0)
    throw new ApiError(
      400,
      'validation-failed',
      `The body is not valid: ${problems.map((problem) => `'${problem.field}' ${problem.message}`).join('; ')}.`,
      problems,
    );
}

/** A `/workstation/` body's fault: 400 `validation-failed`, naming the field when there is one. */
export const bad = (message: string, field?: string): ApiError =>
  new ApiError(400, 'validation-failed', message, field ? [{ field, message }] : undefined);

/** The request's JSON body, which must be an object. */
export function bodyOf(ctx: RequestContext): JsonObject {
  const body = jsonBody(ctx);
  if (!isJsonObject(body)) throw bad('The body must be a JSON object.');
  return body;
}
