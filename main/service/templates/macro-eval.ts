import { isJsonObject, type Json, type JsonObject } from '../api-types';
import { ApiError } from '../errors';
import { acceptsMissing, asText, callFunction, isFunction } from './macro-functions';
import { MacroProblem, parseText, type Expr, type MacroPart, type RefRoot, type TextPart } from './macro-syntax';

/** Where a text is evaluated: the field it builds, and what its macros can see. */
export interface MacroScope {
  /** Dot path of the field being built, named in every error. */
  field: string;
  input: JsonObject;
  /** The foreach element and its 0-based position, inside a foreach entry only. */
  item?: { value: Json; index: number };
  /** The value the template produces at a path, or undefined when it sets none there. */
  self(path: string[]): Json | undefined;
  /** The text of the nearest data/Macro of that name, or undefined. */
  macro(name: string): string | undefined;
  /** The node the template is applied at, for "not found" messages. */
  where: string;
  now: string;
  /** Shared by one template application: bounds the work a template (and its macros) can cause. */
  budget: { steps: number };
  /** Macros being expanded, innermost last, to stop a macro that expands to itself. */
  macroStack: string[];
}

const MAX_STEPS = 100_000;
const MAX_TEXT = 100_000;

/** The error every macro problem becomes: 400, naming the field and the macro. */
export function macroError(field: string, problem: string): ApiError {
  return new ApiError(400, 'macro-error', `Macro error in ${field}: ${problem}.`, [{ field, message: problem }]);
}

const partsCache = new Map<string, TextPart[]>();

function partsOf(text: string): TextPart[] {
  let parts = partsCache.get(text);
  if (!parts) {
    parts = parseText(text, isFunction);
    // Templates are few and reused; the bound only stops a stream of distinct texts growing it.
    if (partsCache.size > 5000) partsCache.clear();
    partsCache.set(text, parts);
  }
  return parts;
}

/**
 * A text with macros: when the whole text is one macro the value keeps its JSON type (a boolean
 * stays a boolean); otherwise the pieces are joined into a string.
 */
export function evaluateText(text: string, scope: MacroScope): Json {
  try {
    return textValue(text, scope);
  } catch (error) {
    if (error instanceof MacroProblem) throw macroError(scope.field, error.message);
    throw error;
  }
}

function textValue(text: string, scope: MacroScope): Json {
  const parts = partsOf(text);
  if (parts.length === 1 && typeof parts[0] !== 'string') return partValue(parts[0], scope) ?? null;
  let result = '';
  for (const part of parts) {
    result += typeof part === 'string' ? part : asText(partValue(part, scope));
    if (result.length > MAX_TEXT)
      throw new MacroProblem(`the text built from "${text.slice(0, 40)}" is longer than ${MAX_TEXT} characters`);
  }
  return result;
}

/** Each level names its own macro, so a problem deep in a data/Macro reads as a path to it. */
function partValue(part: MacroPart, scope: MacroScope): Json | undefined {
  try {
    return evaluate(part.expr, scope, false);
  } catch (error) {
    if (error instanceof MacroProblem) throw new MacroProblem(`{{ ${part.source} }}: ${error.message}`);
    throw error;
  }
}

function evaluate(expr: Expr, scope: MacroScope, optional: boolean): Json | undefined {
  scope.budget.steps += 1;
  if (scope.budget.steps > MAX_STEPS) throw new MacroProblem(`the template needs more than ${MAX_STEPS} steps; simplify its macros`);
  if (expr.kind === 'literal') return expr.value;
  if (expr.kind === 'call') {
    const args = expr.args.map((arg) => evaluate(arg, scope, acceptsMissing(expr.name)));
    return callFunction(expr.name, args, scope.now);
  }
  const value = resolveRef(expr.root, expr.path, scope);
  if (value === undefined && !optional) throw new MacroProblem(missingMessage(expr.root, expr.path, scope));
  return value;
}

function resolveRef(root: RefRoot, path: string[], scope: MacroScope): Json | undefined {
  switch (root) {
    case 'input':
      return navigate(scope.input, path, 'input');
    case 'self':
      return scope.self(path);
    case 'macro':
      return expandMacro(path[0], scope);
    case 'item':
      if (!scope.item) throw new MacroProblem('item is only defined inside a foreach entry (a key ending in [] or __foreach__)');
      return navigate(scope.item.value, path, 'item');
    case 'index':
      if (!scope.item) throw new MacroProblem('index is only defined inside a foreach entry (a key ending in [] or __foreach__)');
      return scope.item.index;
  }
}

function missingMessage(root: string, path: string[], scope: MacroScope): string {
  const name = [root, ...path].join('.');
  if (root === 'input') return `the payload has no value at ${name}; give it, or use fn.default ${name} "<fallback>"`;
  if (root === 'self') return `the template sets no field ${path.join('.')}`;
  if (root === 'macro') return `no Macro named '${path[0]}' was found at ${scope.where} or above`;
  return `the foreach element has no value at ${name}`;
}

/**
 * Follows a dot path: names into objects, 0-based indexes into lists. A missing name or index
 * is "no value" (undefined); a name used on a list, or any step into text, is a bad path.
 */
export function navigate(value: Json | undefined, path: string[], rootName: string): Json | undefined {
  let current = value;
  for (const [depth, segment] of path.entries()) {
    if (current === undefined || current === null) return undefined;
    const at = [rootName, ...path.slice(0, depth)].join('.');
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(segment)) throw new MacroProblem(`bad path: ${at} is a list, so '${segment}' must be a 0-based index`);
      current = current[Number(segment)];
    } else if (isJsonObject(current)) {
      current = Object.hasOwn(current, segment) ? current[segment] : undefined;
    } else {
      throw new MacroProblem(`bad path: ${at} is ${JSON.stringify(current)}, which has no '${segment}'`);
    }
  }
  return current;
}

/** A data/Macro's text is itself a text with macros, evaluated where the reference stands. */
function expandMacro(name: string, scope: MacroScope): Json | undefined {
  const text = scope.macro(name);
  if (text === undefined) return undefined;
  if (scope.macroStack.includes(name)) {
    throw new MacroProblem(`macro ${[...scope.macroStack, name].join(' -> ')} expands to itself`);
  }
  scope.macroStack.push(name);
  try {
    return textValue(text, scope);
  } catch (error) {
    if (error instanceof MacroProblem) throw new MacroProblem(`in Macro '${name}': ${error.message}`);
    throw error;
  } finally {
    scope.macroStack.pop();
  }
}
