import { RE2JS } from 're2js';
import { ApiError } from '../errors';

/**
 * A find or replace pattern from a request, run over cells on the service's own thread.
 *
 * JavaScript's RegExp backtracks: `^(a+)+$` over 27 `a` and a `!` takes seconds, and the service
 * has one thread, so one request held every user (issue 30). A user's regular expression runs on
 * RE2JS instead, a pure-JavaScript port of RE2 that matches in time linear in the text (no
 * back-references, no look-around: those are refused). It was chosen over the native `re2`
 * package because that one needs a compiled binary per Node and per Electron ABI, and over a
 * worker with a time budget because the cells to match are read here, from SQLite, page by page.
 *
 * Linear is not yet small: RE2JS costs up to about 50 ns per character per instruction of the
 * compiled program (measured on this project's 2-core machine: `[\p{L}\p{N}]{1000}` over one
 * 32,767-character cell, 0.8 s in a replace). So a call is bounded before it runs: the program's
 * size times the cell's length must stay under MAX_UNITS (about 15 ms at that rate), else the
 * request is refused with 400 `pattern-too-costly`; the caller gives the event loop a turn between
 * cells (TimeSlice), and the matching time of one request is capped at MATCH_BUDGET_MS.
 *
 * A plain text (`regex` false) is escaped into a native RegExp: a literal cannot backtrack, and
 * V8 runs it several times faster than RE2JS.
 */
export interface CellPattern {
  test(text: string): boolean;
  /** Every match replaced, `$1`, `$&` and `$$` expanded as String.prototype.replace does. */
  replace(text: string, replacement: string): string;
}

export interface PatternOptions {
  regex: boolean;
  matchCase: boolean;
  /** The request field that holds the pattern, named in a refusal. */
  field: string;
  /** How a refusal is coded: a row filter's is `validation-failed`, an edit's `bad-edit`. */
  code: string;
}

export const MAX_PATTERN = 500;
/** Compiled program size: RE2's own repeat limit is 1,000; a program this size already costs 20 ms a 1,000-character cell. */
export const MAX_PROGRAM = 400;
/** Program size x cell length for one call: at most about 15 ms at the measured worst rate. */
export const MAX_UNITS = 300_000;
/** The matching time one request may spend in all (on the service's thread, between turns). */
export const MATCH_BUDGET_MS = 5_000;

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function compileCellPattern(find: string, options: PatternOptions): CellPattern {
  const refuse = (code: string, message: string): ApiError => new ApiError(400, code, message, [{ field: options.field, message }]);
  if (find === '') throw refuse(options.code, `'${options.field}' must not be empty.`);
  if (find.length > MAX_PATTERN) throw refuse(options.code, `'${options.field}' is at most ${MAX_PATTERN} characters.`);
  if (!options.regex) return new LiteralPattern(new RegExp(escape(find), options.matchCase ? 'g' : 'gi'));
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(find), options.matchCase ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    throw refuse(
      options.code,
      `'${options.field}' is not a regular expression the service can run in bounded time (${(error as Error).message}). ` +
        'Back-references and look-around are not supported.',
    );
  }
  const size = compiled.programSize();
  if (size > MAX_PROGRAM)
    throw refuse(
      'pattern-too-costly',
      `'${options.field}' compiles to ${size} steps; at most ${MAX_PROGRAM} are run (use fewer or smaller counted repeats such as {1000}).`,
    );
  return new BoundedPattern(compiled, size, (message) => refuse('pattern-too-costly', message));
}

class LiteralPattern implements CellPattern {
  constructor(private readonly pattern: RegExp) {}

  test(text: string): boolean {
    this.pattern.lastIndex = 0;
    return this.pattern.test(text);
  }

  replace(text: string, replacement: string): string {
    this.pattern.lastIndex = 0;
    return text.replace(this.pattern, replacement);
  }
}

class BoundedPattern implements CellPattern {
  private spentMs = 0;

  constructor(
    private readonly compiled: RE2JS,
    private readonly size: number,
    private readonly refuse: (message: string) => ApiError,
  ) {}

  test(text: string): boolean {
    return this.run(text, () => this.compiled.test(text));
  }

  replace(text: string, replacement: string): string {
    return this.run(text, () => this.compiled.matcher(text).replaceAll(replacement));
  }

  private run<T>(text: string, match: () => T): T {
    if (this.size * text.length > MAX_UNITS)
      throw this.refuse(
        `The pattern is too costly for a cell of ${text.length.toLocaleString('en-US')} characters ` +
          `(${this.size} steps a character; at most ${MAX_UNITS.toLocaleString('en-US')} steps a cell): simplify it.`,
      );
    const started = performance.now();
    const result = match();
    this.spentMs += performance.now() - started;
    if (this.spentMs > MATCH_BUDGET_MS)
      throw this.refuse(`The pattern took over ${MATCH_BUDGET_MS / 1000} s of matching: narrow it, or search within fewer rows.`);
    return result;
  }
}

/** The slices of a scan or a replace (moved to ../turns.ts, shared by every long piece of work). */
export { TimeSlice } from '../turns';
