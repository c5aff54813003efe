import { isJsonObject, type Json, type JsonObject } from '../api-types';
import { ApiError } from '../errors';
import { evaluateText, macroError, navigate, type MacroScope } from './macro-eval';
import { hasMacro, MacroProblem } from './macro-syntax';

/** The key of a block whose entries are built once per foreach element and merged in. */
export const FOREACH_BLOCK = '__foreach__';
/** A key ending in this builds a list with one entry per foreach element. */
const LIST_SUFFIX = '[]';

export interface ExpandOptions {
  /** What `input.` reads: the caller's payload (on PUT, merged over the stored instance). */
  input: JsonObject;
  /** Name of the input list field that foreach entries walk, or null. */
  foreach: string | null;
  macro(name: string): string | undefined;
  where: string;
  now: string;
}

type Item = { value: Json; index: number };

/**
 * Builds the field values of one template. Fields are evaluated on demand and remembered, so
 * `{{ self.x }}` sees the value the template gives x wherever x stands, and a field that needs
 * itself (through any chain of self references) is reported instead of looping.
 */
export function expandTemplate(template: JsonObject, options: ExpandOptions): JsonObject {
  return new TemplateExpander(template, options).expandRoot();
}

class TemplateExpander {
  private readonly memo = new Map<string, Json>();
  private readonly inProgress: string[] = [];
  private readonly budget = { steps: 0 };
  private readonly macroStack: string[] = [];
  private items: Item[] = [];

  constructor(
    private readonly template: JsonObject,
    private readonly options: ExpandOptions,
  ) {}

  expandRoot(): JsonObject {
    // Checked first, so a wrong input list is reported as such rather than as a macro reading it.
    const name = this.options.foreach;
    const list = name ? this.options.input[name] : undefined;
    if (name && list !== undefined && list !== null && !Array.isArray(list)) {
      throw new ApiError(400, 'validation-failed', `Invalid data: ${name}: must be a list (the template's foreach field).`, [
        { field: name, message: "must be a list (the template's foreach field)" },
      ]);
    }
    this.items = (Array.isArray(list) ? list : []).map((value, index) => ({ value, index }));
    return this.expandObject(this.template, [], undefined);
  }

  private expandObject(raw: JsonObject, path: string[], item: Item | undefined): JsonObject {
    let result: JsonObject = {};
    for (const [rawKey, value] of Object.entries(raw)) {
      if (rawKey === FOREACH_BLOCK) continue;
      if (rawKey.endsWith(LIST_SUFFIX)) {
        const key = this.expandKey(rawKey.slice(0, -LIST_SUFFIX.length), path, item);
        result[key] = this.memoized([...path, key], () => this.eachItem(value, [...path, key], rawKey, item));
        continue;
      }
      const key = this.expandKey(rawKey, path, item);
      const build = (): Json => this.expandValue(value, [...path, key], item);
      // Inside a foreach entry a value depends on the element, so it is never remembered.
      result[key] = item || hasMacro(rawKey) ? build() : this.memoized([...path, key], build);
    }
    const block = raw[FOREACH_BLOCK];
    if (block !== undefined) {
      if (!isJsonObject(block))
        throw new ApiError(400, 'macro-error', `${FOREACH_BLOCK} must be an object of field values.`, [
          { field: fieldName([...path, FOREACH_BLOCK]), message: 'must be an object' },
        ]);
      for (const element of this.foreachItems(fieldName([...path, FOREACH_BLOCK]), item)) {
        result = deepMerge(result, this.expandObject(block, path, element));
      }
    }
    return result;
  }

  private expandValue(raw: Json, path: string[], item: Item | undefined): Json {
    if (typeof raw === 'string') return evaluateText(raw, this.scope(path, item));
    if (Array.isArray(raw)) return raw.map((entry, index) => this.expandValue(entry, [...path, String(index)], item));
    if (isJsonObject(raw)) return this.expandObject(raw, path, item);
    return raw;
  }

  /** A key may hold macros (e.g. `callForward{{ item.type }}` in a foreach block); it must give a name. */
  private expandKey(rawKey: string, path: string[], item: Item | undefined): string {
    if (!hasMacro(rawKey)) return rawKey;
    const key = evaluateText(rawKey, this.scope([...path, rawKey], item));
    if (typeof key !== 'string' || key === '') {
      throw macroError(fieldName([...path, rawKey]), `the key must give a field name, not ${JSON.stringify(key)}`);
    }
    return key;
  }

  private eachItem(raw: Json, path: string[], rawKey: string, outer: Item | undefined): Json[] {
    return this.foreachItems(fieldName([...path.slice(0, -1), rawKey]), outer).map((element) =>
      this.expandValue(raw, [...path, String(element.index)], element),
    );
  }

  /** The foreach elements (read in expandRoot); a missing input list builds nothing. */
  private foreachItems(field: string, outer: Item | undefined): Item[] {
    const name = this.options.foreach;
    if (!name) throw macroError(field, 'the template uses a foreach entry but names no foreach field');
    if (outer) throw macroError(field, 'foreach entries do not nest');
    return this.items;
  }

  private memoized(path: string[], build: () => Json): Json {
    const key = fieldName(path);
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    if (this.inProgress.includes(key)) {
      const cycle = [...this.inProgress.slice(this.inProgress.indexOf(key)), key].join(' -> ');
      throw new MacroProblem(`the template's values refer to each other in a cycle: ${cycle}`);
    }
    this.inProgress.push(key);
    try {
      const value = build();
      this.memo.set(key, value);
      return value;
    } finally {
      this.inProgress.pop();
    }
  }

  /** `{{ self.a.b }}`: walks the template's literal keys to the value that holds a.b, builds it once. */
  private resolveSelf(segments: string[]): Json | undefined {
    let raw: JsonObject = this.template;
    for (let depth = 0; depth < segments.length; depth += 1) {
      const here = segments.slice(0, depth + 1);
      const rest = segments.slice(depth + 1);
      const key = segments[depth];
      const listKey = `${key}${LIST_SUFFIX}`;
      if (Object.hasOwn(raw, listKey)) {
        const list = raw[listKey];
        return navigate(
          this.memoized(here, () => this.eachItem(list, here, listKey, undefined)),
          rest,
          `self.${fieldName(here)}`,
        );
      }
      if (!Object.hasOwn(raw, key)) return undefined;
      const child = raw[key];
      if (isJsonObject(child) && rest.length > 0 && !Object.hasOwn(child, FOREACH_BLOCK)) {
        raw = child;
        continue;
      }
      return navigate(
        this.memoized(here, () => this.expandValue(child, here, undefined)),
        rest,
        `self.${fieldName(here)}`,
      );
    }
    return undefined;
  }

  private scope(path: string[], item: Item | undefined): MacroScope {
    return {
      field: fieldName(path),
      input: this.options.input,
      item,
      self: (segments) => this.resolveSelf(segments),
      macro: (name) => this.options.macro(name),
      where: this.options.where,
      now: this.options.now,
      budget: this.budget,
      macroStack: this.macroStack,
    };
  }
}

const fieldName = (path: string[]): string => path.join('.');

/** Foreach results merge into their object: nested objects merge, anything else is replaced. */
function deepMerge(base: JsonObject, extra: JsonObject): JsonObject {
  const merged: JsonObject = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = merged[key];
    merged[key] = isJsonObject(current) && isJsonObject(value) ? deepMerge(current, value) : value;
  }
  return merged;
}
