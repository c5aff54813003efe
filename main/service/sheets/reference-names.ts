import type { JsonObject } from '../api-types';
import type { Store } from '../domain/store';
import { quoted } from '../domain/rules/text';
import { nearestChoice } from '../schema/nearest-choice';
import type { RowCheck } from './validate-context';
import { report } from './validate-context';

/**
 * Names a line refers to that the store (or, for a remote profile's workbook, its mirror) holds
 * no record of its own for: route partitions, calling search spaces, presence groups. What the
 * store holds of them is the names its lines already use. A new name is not wrong (a first site
 * brings its partition), but a name that differs from one in use only by case or a letter or two
 * ('paris-pt', 'Paris-PTT') is a typo the call manager would take as another partition: a
 * warning, with the name in use as its fix. Devices and CFT templates are records: a name not
 * found is an error (validate-lines.ts, validate-row.ts).
 */
type Kind = 'route partition' | 'calling search space' | 'presence group';

const LINE_MODELS = "('relation/LineRelation', 'device/cucm/Line')";
const FORWARDS = ['All', 'Busy', 'NoAnswer', 'NoCoverage', 'NotRegistered', 'NotRegisteredInt', 'OnFailure'];

/** Where the store's lines hold each kind of name (JSON paths of their data). */
const PATHS: Record<Kind, string[]> = {
  'route partition': ['$.routePartitionName'],
  'calling search space': [
    ...FORWARDS.map((name) => `$.callForward${name}.callingSearchSpaceName`),
    '$.shareLineAppearanceCssName',
    '$.parkMonForwardNoRetrieveIntCssName',
  ],
  'presence group': ['$.presenceGroupName'],
};

/** The kind of name a field of a line holds, by the field's own name. */
function kindOf(field: string): Kind | undefined {
  if (field === 'routePartitionName' || field === 'routePartition') return 'route partition';
  if (field === 'callingSearchSpaceName' || field === 'shareLineAppearanceCssName' || field === 'parkMonForwardNoRetrieveIntCssName')
    return 'calling search space';
  if (field === 'presenceGroupName') return 'presence group';
  return undefined;
}

/**
 * The names of a kind the store's lines use, read once per validation (keyed by the validation's
 * own cache, so a later validation reads the store as it is then).
 */
const known = new WeakMap<object, Map<Kind, Set<string>>>();

function namesInUse(store: Store, kind: Kind, cache: Map<Kind, Set<string>>): Set<string> {
  let names = cache.get(kind);
  if (names) return names;
  names = new Set();
  const union = PATHS[kind]
    .map((path) => `SELECT json_extract(data, '${path}') AS name FROM instances WHERE model_type IN ${LINE_MODELS}`)
    .join(' UNION ');
  for (const row of store.statement(`SELECT DISTINCT name FROM (${union}) WHERE name IS NOT NULL AND name != ''`).all() as {
    name: unknown;
  }[]) {
    if (typeof row.name === 'string') names.add(row.name);
  }
  cache.set(kind, names);
  return names;
}

/** A name in use that the text differs from only by case, or by at most one letter in eight (two at most). */
function nearInUse(text: string, names: Set<string>): string | undefined {
  const nearest = nearestChoice(text, [...names]);
  if (nearest === undefined) return undefined;
  const cost = levenshteinWithin(text.toLowerCase(), nearest.toLowerCase(), Math.min(2, Math.ceil(text.length / 8)));
  return cost ? nearest : undefined;
}

/** True when a and b differ by at most `limit` single-letter edits. */
function levenshteinWithin(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] <= limit;
}

/**
 * The near miss of a name, worked out once per validation: a 100,000-row load of a new site's
 * partition would otherwise compare every row's name with every name in use.
 */
const nearMemos = new WeakMap<object, Map<string, string | undefined>>();

function nearMemo(owner: object, kind: Kind, value: string, names: Set<string>): string | undefined {
  let memo = nearMemos.get(owner);
  if (!memo) nearMemos.set(owner, (memo = new Map()));
  const key = `${kind}\u0000${value}`;
  if (memo.has(key)) return memo.get(key);
  const nearest = nearInUse(value, names);
  memo.set(key, nearest);
  return nearest;
}

function walk(data: JsonObject, prefix: string, visit: (path: string, field: string, value: string) => void): void {
  for (const name in data) {
    if (!Object.hasOwn(data, name)) continue;
    const value = data[name];
    const path = `${prefix}${name}`;
    if (typeof value === 'string') visit(path, name, value);
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) walk(value, `${path}.`, visit);
  }
}

/** Warns about each name the row gives that is a near miss of one the store's lines use. */
export function checkReferenceNames(check: RowCheck): void {
  const modelType = check.model.modelType;
  if (modelType !== 'relation/LineRelation' && modelType !== 'device/cucm/Line') return;
  let cache = known.get(check.cache);
  walk(check.row.data, '', (path, field, value) => {
    const kind = kindOf(field);
    if (kind === undefined || value === '' || value.trim() !== value) return;
    // An issue at the field already (spaces, control characters) says what to fix first.
    if (check.issues.some((issue) => issue.field === path)) return;
    if (!cache) known.set(check.cache, (cache = new Map()));
    const names = namesInUse(check.store, kind, cache);
    if (names.has(value)) return;
    const nearest = nearMemo(check.cache, kind, value, names);
    if (nearest === undefined) return;
    report(
      check,
      path,
      'warning',
      'name-not-in-use',
      `no line here uses the ${kind} ${quoted(value)}, but lines use ${quoted(nearest)}: the call manager would take ${quoted(value)} as another ${kind}; write ${quoted(nearest)} if that is the one`,
    );
    check.issues[check.issues.length - 1].fix = { label: `Use ${quoted(nearest)}, the ${kind} lines use`, value: nearest };
  });
}
