import { isWithin } from '../domain/hierarchy';
import type { Store } from '../domain/store';
import { UNSAMPLED } from '../store/db';

/**
 * Which stored instances hold a business key: pkid and node path only, for the checks a
 * validation runs on every row. `InstancesRepo.findByKey` answers the same but costs 25-35 µs
 * a call here: with `model_type = ?` bound, SQLite plans again on each run against the partial
 * summary indexes. The model type written into the SQL (one statement per model, from the
 * registry) and the index named keep it at a few µs, which is most of a 200,000-row validation.
 */
export interface KeyHolder {
  pkid: string;
  hierarchyPath: string;
}

const MODEL_TYPE = /^(data|relation|device\/cucm|tool|view)\/[A-Za-z]+$/;

function keySql(modelType: string, columns = ''): string {
  if (!MODEL_TYPE.test(modelType)) throw new Error(`not a model type: ${modelType}`);
  return `SELECT i.pkid AS pkid, (SELECT n.path FROM nodes n WHERE n.pkid = i.hierarchy_pkid) AS hierarchyPath${columns}
  FROM instances i INDEXED BY instances_model_bkey WHERE i.model_type = '${modelType}' AND i.bkey = ${UNSAMPLED}`;
}

type KeyStatement = ReturnType<Store['statement']>;

/**
 * The statement per store and model type, found without building its SQL text again: three
 * look-ups a row made that text (and hashed it) about 2 µs each time.
 */
const statementsOf = new WeakMap<Store, Map<string, KeyStatement>>();

function keyStatement(store: Store, modelType: string): KeyStatement {
  let byModel = statementsOf.get(store);
  if (!byModel) statementsOf.set(store, (byModel = new Map()));
  let statement = byModel.get(modelType);
  if (!statement) byModel.set(modelType, (statement = store.statement(keySql(modelType))));
  return statement;
}

export function keyHolders(store: Store, modelType: string, bkey: string): KeyHolder[] {
  return keyStatement(store, modelType).all(bkey) as KeyHolder[];
}

export interface InventoryHolder extends KeyHolder {
  status: string;
}

const INVENTORY_SQL = keySql('data/InternalNumberInventory', ", coalesce(json_extract(i.data, '$.status'), 'Available') AS status");

/**
 * The inventory entry of a number at the node or its nearest ancestor: the entry
 * `inventoryEntry()` of transactions/workflows/line-parts.ts finds when the row runs, read the
 * fast way above.
 */
export function inventoryHolder(store: Store, nodePath: string, pattern: string): InventoryHolder | undefined {
  return (store.statement(INVENTORY_SQL).all(JSON.stringify([pattern])) as InventoryHolder[])
    .filter((entry) => isWithin(nodePath, entry.hierarchyPath))
    .sort((a, b) => b.hierarchyPath.length - a.hierarchyPath.length)[0];
}

export interface PhoneHolder extends KeyHolder {
  /** Lines the phone holds now. */
  lines: number;
}

const PHONE_SQL = keySql('device/cucm/Phone', ", coalesce(json_array_length(i.data, '$.lines'), 0) AS lines");

/** A stored phone by name (phone names are global keys), with its line count and nothing else parsed. */
export function phoneHolder(store: Store, name: string): PhoneHolder | undefined {
  return store.statement(PHONE_SQL).get(JSON.stringify([name])) as PhoneHolder | undefined;
}
