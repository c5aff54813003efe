import { targetOf } from '../../remote/remote-target';
import { lastPull } from '../../remote/mirror-workspace';
import { pullMirror } from '../../remote/sync-pull';
import type { HomeGet } from '../contract/home-node';
import type { SyncPullAnswer, SyncStatus } from '../contract/workstation-api';
import { ApiError, notFound } from '../errors';
import { json } from '../responses';
import { settleBody } from '../body-stream';
import { usableProfile } from './profile-access';
import { methodNotAllowed, type WorkstationDeps, type WorkstationRouteGroup } from './route-group';
import type { RemoteProfileRow } from '../store/remote-profiles-repo';

/**
 * `sync/<profile>/`: the profile's mirror (GET: when it was last pulled, what it holds), and
 * `sync/<profile>/pull/` (POST: pull now, answered when the pull ends). One pull of a profile at a
 * time; the remote is read as the profile's user, through the same pool and sign-in as its live
 * workspace.
 */
const running = new Map<string, Promise<SyncPullAnswer>>();

/** A GET of the remote's API as the profile's user, its JSON answer parsed. */
function remoteGet(deps: WorkstationDeps, row: RemoteProfileRow): HomeGet {
  const target = targetOf(row);
  return async (path, query) => {
    const url = `${path}?${new URLSearchParams(query).toString()}`;
    const answer = await deps.remote.forward(target, { method: 'GET', url, headers: { accept: 'application/json' } });
    const { body } = await settleBody(answer);
    const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: answer.status, body: parsed };
  };
}

function status(deps: WorkstationDeps, row: RemoteProfileRow): SyncStatus {
  const last = lastPull(deps.dataDir, row.pkid);
  return {
    profile: row.name,
    pulled_at: last?.pulled_at ?? null,
    mode: last?.mode ?? null,
    home_hierarchy: last?.home_path ?? null,
    counts: last ? (JSON.parse(last.counts) as Record<string, number>) : {},
  };
}

export const syncRoutes: WorkstationRouteGroup = {
  prefix: 'sync',
  async handle(deps, ctx, rest) {
    const [name, action, ...more] = rest;
    if (name === undefined || more.length > 0 || (action !== undefined && action !== 'pull'))
      throw notFound(`No workstation endpoint at ${ctx.path}: use /workstation/sync/<profile>/ or /workstation/sync/<profile>/pull/.`);
    const row = usableProfile(deps, ctx, name);
    if (action === undefined) {
      if (ctx.method !== 'GET') throw methodNotAllowed(ctx, 'GET');
      return json(200, status(deps, row));
    }
    if (ctx.method !== 'POST') throw methodNotAllowed(ctx, 'POST');
    if (running.has(row.pkid)) throw new ApiError(409, 'conflict', `A pull of ${row.name} is already running: wait for it to end.`);
    const pull = pullMirror({
      dataDir: deps.dataDir,
      profilePkid: row.pkid,
      deployment: row.name,
      username: row.username,
      homeHierarchy: row.home_hierarchy,
      get: remoteGet(deps, row),
      // The workbooks' connection to the mirror a whole pull replaces is let go first.
      beforeReplace: () => deps.mirrors.forget(row.pkid),
    });
    running.set(row.pkid, pull);
    try {
      return json(200, await pull);
    } finally {
      running.delete(row.pkid);
    }
  },
};
