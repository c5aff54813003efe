import type { Json } from '../api-types';
import { MacroProblem } from './macro-syntax';

/** An argument's value; `undefined` only reaches functions that accept missing values. */
export type FnArg = Json | undefined;

interface FnDef {
  minArgs: number;
  maxArgs: number;
  /** True when a missing input, self value or macro is passed as undefined instead of failing. */
  acceptsMissing?: boolean;
  run(args: FnArg[], now: string): Json;
}

/** How a value reads inside text: JSON for lists and objects, nothing for null. */
export function asText(value: FnArg): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function asInteger(value: FnArg, what: string): number {
  const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number))
    throw new MacroProblem(`${what} must be a whole number, not ${asText(value)}`);
  return number;
}

const isEmpty = (value: FnArg): boolean => value === undefined || value === null || value === '';

/**
 * strftime-style codes over the service clock (UTC), which `store.now()` gives as
 * `YYYY-MM-DDTHH:MM:SS.ffffff`: %Y %y %m %d %H %M %S %f (microseconds) %j (day of year) %%.
 */
export function formatNow(now: string, format: string): string {
  const codes: Record<string, string> = {
    Y: now.slice(0, 4),
    y: now.slice(2, 4),
    m: now.slice(5, 7),
    d: now.slice(8, 10),
    H: now.slice(11, 13),
    M: now.slice(14, 16),
    S: now.slice(17, 19),
    f: now.slice(20, 26),
    j: String(dayOfYear(now.slice(0, 10))).padStart(3, '0'),
    '%': '%',
  };
  return format.replace(/%(.?)/g, (_, code: string) => {
    const value = codes[code];
    if (value === undefined) throw new MacroProblem(`%${code} is not a date code of fn.now (use %Y %y %m %d %H %M %S %f %j %%)`);
    return value;
  });
}

function dayOfYear(date: string): number {
  const start = Date.UTC(Number(date.slice(0, 4)), 0, 1);
  return Math.round((Date.parse(`${date}T00:00:00Z`) - start) / 86_400_000) + 1;
}

const text1 = (run: (text: string) => string): FnDef => ({ minArgs: 1, maxArgs: 1, run: ([value]) => run(asText(value)) });

export const FUNCTIONS: Record<string, FnDef> = {
  now: { minArgs: 0, maxArgs: 1, run: ([format], now) => formatNow(now, format === undefined ? '%Y-%m-%dT%H:%M:%S' : asText(format)) },
  upper: text1((text) => text.toUpperCase()),
  lower: text1((text) => text.toLowerCase()),
  trim: text1((text) => text.trim()),
  replace: {
    minArgs: 3,
    maxArgs: 3,
    run: ([value, from, to]) => (asText(from) === '' ? asText(value) : asText(value).split(asText(from)).join(asText(to))),
  },
  substring: {
    minArgs: 2,
    maxArgs: 3,
    run: ([value, start, end]) =>
      asText(value).slice(asInteger(start, 'the start'), end === undefined ? undefined : asInteger(end, 'the end')),
  },
  concat: { minArgs: 1, maxArgs: 50, run: (args) => args.map(asText).join('') },
  default: {
    minArgs: 1,
    maxArgs: 50,
    acceptsMissing: true,
    run: (args) => args.find((value) => !isEmpty(value)) ?? null,
  },
};

export const isFunction = (name: string): boolean => Object.hasOwn(FUNCTIONS, name);

export function callFunction(name: string, args: FnArg[], now: string): Json {
  const fn = FUNCTIONS[name];
  if (args.length < fn.minArgs || args.length > fn.maxArgs) {
    const wanted = fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
    throw new MacroProblem(`fn.${name} takes ${wanted} argument${fn.maxArgs === 1 ? '' : 's'}, not ${args.length}`);
  }
  return fn.run(args, now);
}

export const acceptsMissing = (name: string): boolean => FUNCTIONS[name].acceptsMissing === true;
