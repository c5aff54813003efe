import type { Json } from './api-types';
import { ApiError } from './errors';

/** decisions.md: JSON nested deeper than this is refused before anything walks it. */
export const MAX_JSON_DEPTH = 64;

/**
 * Refuses JSON text nested deeper than `MAX_JSON_DEPTH` levels. It scans the text itself, in one
 * flat loop, before `JSON.parse`: the parser copes with deep nesting, but every recursive walk
 * after it (templates' macros, search, schema checks) would overflow the stack on a 10,000-level
 * body and answer 500. Brackets inside strings do not count.
 */
export function assertJsonDepth(text: string, maxDepth = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: the next character is escaped, whatever it is
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > maxDepth) {
        throw new ApiError(400, 'validation-failed', `The request body nests JSON deeper than ${maxDepth} levels; flatten it.`, [
          { field: 'body', message: `nests deeper than ${maxDepth} levels` },
        ]);
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
}

/**
 * Refuses a body with a key named `__proto__` at any depth. JSON.parse makes it an ordinary own
 * property, but any copy by assignment (Object.assign, `obj[key] = value`) would make its value
 * the copy's prototype instead: fields read through it would appear that no check ever saw. No
 * model has such a field, so it is refused outright. `value` is already within MAX_JSON_DEPTH.
 */
export function assertNoPrototypeKeys(value: Json): void {
  const pending: Json[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== 'object') continue;
    if (Array.isArray(next)) {
      // One at a time: push(...next) would pass every item as an argument, past V8's limit for a
      // body of a few hundred thousand hrefs.
      for (const item of next) pending.push(item);
      continue;
    }
    if (Object.hasOwn(next, '__proto__')) {
      throw new ApiError(400, 'validation-failed', 'The request body has a field named __proto__, which no resource has; remove it.', [
        { field: '__proto__', message: 'is not a field of any resource' },
      ]);
    }
    for (const key in next) pending.push(next[key]);
  }
}
