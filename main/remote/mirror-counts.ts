import { ApiError } from '../service/errors';
import type { Db } from '../service/store/db';

/**
 * What a pull would take out of a mirror, and what the mirror holds in the pulled scope.
 *
 * A remote that answers a broken scope (a user moved to the wrong node, a list filtered by a
 * proxy) lists a fraction of what it holds, every page well formed. Taken as it is, that pull
 * would empty an engineer's mirror the evening before a day offline. A pull that would remove
 * more than a tenth of a model's instances is therefore refused (409 `mass-delete`) unless the
 * caller allows it: the app asks first, the CLI needs `--allow-mass-delete`.
 */
export interface Removal {
  model_type: string;
  before: number;
  removed: number;
}

/** The mirror's instances by pkid and model, before a pull changes it. */
export function snapshotOf(db: Db): Map<string, string> {
  const rows = db.prepare<[], [string, string]>('SELECT pkid, model_type FROM instances').raw().all();
  return new Map(rows);
}

/** Per model, how many of the instances in `before` are no longer in `after`'s mirror. */
export function removalsFrom(before: ReadonlyMap<string, string>, after: Db): Removal[] {
  const kept = new Set(
    after
      .prepare<[], [string]>('SELECT pkid FROM instances')
      .raw()
      .all()
      .map(([pkid]) => pkid),
  );
  const byModel = new Map<string, Removal>();
  for (const [pkid, modelType] of before) {
    let removal = byModel.get(modelType);
    if (!removal) byModel.set(modelType, (removal = { model_type: modelType, before: 0, removed: 0 }));
    removal.before += 1;
    if (!kept.has(pkid)) removal.removed += 1;
  }
  return [...byModel.values()];
}

/** More than a tenth of the model's instances. */
export const isMass = (removal: Removal): boolean => removal.removed * 10 > removal.before;

export function guardMassDelete(deployment: string, removals: readonly Removal[], allowed: boolean): void {
  const mass = removals.filter(isMass);
  if (allowed || mass.length === 0) return;
  const said = mass.map(
    (removal) => `${removal.removed.toLocaleString('en-US')} of ${removal.before.toLocaleString('en-US')} ${removal.model_type}`,
  );
  throw new ApiError(
    409,
    'mass-delete',
    `This pull of ${deployment} would remove more than a tenth of the mirror's instances of a model (${said.join(', ')}), so the mirror is kept as it was. If the remote really lost them, pull again allowing it (the app asks; the CLI takes --allow-mass-delete); if not, check the profile's user and its node on the remote.`,
    mass.map((removal) => ({
      field: removal.model_type,
      message: `would remove ${removal.removed} of ${removal.before}`,
    })),
  );
}

/**
 * The mirror's instances per model in the scope a pull reads: at the home node and below
 * (`down`), and at the home node and the nodes above it (`up`, for the models read from there
 * too). The home node's own are in both, as they are in the remote's two lists.
 */
export function scopeCounts(db: Db, homePath: string): { down: Map<string, number>; up: Map<string, number> } {
  const names = homePath.split('.');
  const lineage = names.map((_, at) => names.slice(0, at + 1).join('.'));
  const down = db
    .prepare<[{ home: string; prefix: string; length: number }], [string, number]>(
      `SELECT i.model_type, count(*) FROM instances i JOIN nodes n ON n.pkid = i.hierarchy_pkid
       WHERE n.path = @home OR substr(n.path, 1, @length) = @prefix GROUP BY i.model_type`,
    )
    .raw()
    .all({ home: homePath, prefix: `${homePath}.`, length: homePath.length + 1 });
  const up = db
    .prepare<[string], [string, number]>(
      `SELECT i.model_type, count(*) FROM instances i JOIN nodes n ON n.pkid = i.hierarchy_pkid
       WHERE n.path IN (SELECT value FROM json_each(?)) GROUP BY i.model_type`,
    )
    .raw()
    .all(JSON.stringify(lineage));
  return { down: new Map(down), up: new Map(up) };
}
