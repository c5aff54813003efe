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
