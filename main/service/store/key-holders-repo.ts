import type Database from 'better-sqlite3';
import { UNSAMPLED, type Db } from './db';

/**
 * Which stored instances hold a business key: pkid and node path only (and, for the number
 * inventory and phones, the one value the checks need), for the checks a validation runs on
 * every row. `InstancesRepo.findByKey` answers the same whole records but costs 25-35 µs a call
 * there: with `model_type = ?` bound, SQLite plans again on each run against the partial summary
 * indexes. The model type written into the SQL (one statement per model, from the registry) and
 * the index named keep it at a few µs, which is most of a 200,000-row validation.
 */
export interface KeyHolder {
  pkid: string;
  hierarchyPath: string;
}

export interface InventoryHolder extends KeyHolder {
  status: string;
}

export interface PhoneHolder extends KeyHolder {
  /** Lines the phone holds now. */
  lines: number;
}

const MODEL_TYPE = /^(data|relation|device\/cucm|tool|view)\/[A-Za-z]+$/;

function keySql(modelType: string, columns = ''): string {
  if (!MODEL_TYPE.test(modelType)) throw new Error(`not a model type: ${modelType}`);
  return `SELECT i.pkid AS pkid, (SELECT n.path FROM nodes n WHERE n.pkid = i.hierarchy_pkid) AS hierarchyPath${columns}
  FROM instances i INDEXED BY instances_model_bkey WHERE i.model_type = '${modelType}' AND i.bkey = ${UNSAMPLED}`;
}

export class KeyHoldersRepo {
  /** A statement per model type, prepared once: three look-ups a row. */
  private readonly byModel = new Map<string, Database.Statement<[string], KeyHolder>>();
  private readonly inventory;
  private readonly phones;
  private readonly inventoryAfterKey;

  constructor(private readonly db: Db) {
    this.inventory = db.prepare<[string], InventoryHolder>(
      keySql('data/InternalNumberInventory', ", coalesce(json_extract(i.data, '$.status'), 'Available') AS status"),
    );
    this.inventoryAfterKey = db.prepare<[string], InventoryHolder & { bkey: string }>(
      `SELECT i.pkid AS pkid, i.bkey AS bkey, (SELECT n.path FROM nodes n WHERE n.pkid = i.hierarchy_pkid) AS hierarchyPath,
         coalesce(json_extract(i.data, '$.status'), 'Available') AS status
       FROM instances i INDEXED BY instances_model_bkey
       WHERE i.model_type = 'data/InternalNumberInventory' AND i.bkey > ${UNSAMPLED} ORDER BY i.bkey LIMIT 200`,
    );
    this.phones = db.prepare<[string], PhoneHolder>(
      keySql('device/cucm/Phone', ", coalesce(json_array_length(i.data, '$.lines'), 0) AS lines"),
    );
  }

  /** The instances of `modelType` whose stored key is `bkey`. */
  holders(modelType: string, bkey: string): KeyHolder[] {
    let statement = this.byModel.get(modelType);
    if (!statement) this.byModel.set(modelType, (statement = this.db.prepare<[string], KeyHolder>(keySql(modelType))));
    return statement.all(bkey);
  }

  /** The number inventory entries of a number (`bkey`: its stored key), each with its status. */
  inventoryHolders(bkey: string): InventoryHolder[] {
    return this.inventory.all(bkey);
  }

  /** Inventory entries whose key sorts after `bkey` (the next numbers), at most 200, in key order. */
  inventoryAfter(bkey: string): (InventoryHolder & { bkey: string })[] {
    return this.inventoryAfterKey.all(bkey);
  }

  /** The stored phone with this key (phone names are global keys), with its line count and nothing else parsed. */
  phone(bkey: string): PhoneHolder | undefined {
    return this.phones.get(bkey);
  }
}
