import { targetOf } from '../../remote/remote-target';
import { lastPull } from '../../remote/mirror-workspace';
import { pullMirror } from '../../remote/sync-pull';
import { pushWorkbook, type RemoteCalls } from '../../remote/sync-push';
import type { RemoteGet } from '../../remote/pull-pages';
import { randomBytes } from 'node:crypto';
import { isJsonObject, type ApiResponse } from '../api-types';
import { jsonBody, type RequestContext } from '../request-context';
import { XLSX_TYPE } from '../sheets/write-workbook';
import type { Who } from '../workbooks/staged-workbooks';
import type { SyncPullAnswer, SyncStatus } from '../contract/workstation-api';
import type { SyncEvent } from '../contract/service-events';
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

/** Requests of the remote's API as the profile's user (its pool, its sign-in), JSON answers parsed. */
function remoteCalls(deps: WorkstationDeps, row: RemoteProfileRow): RemoteCalls {
  const target = targetOf(row);
  const send = async (
    method: string,
    path: string,
    query: Record<string, string>,
    headers: Record<string, string>,
    body?: Uint8Array | string,
  ) => {
    const url = `${path}?${new URLSearchParams(query).toString()}`;
    const answer = await deps.remote.forward(target, { method, url, headers: { accept: 'application/json', ...headers }, body });
    const settled = await settleBody(answer);
    const text = typeof settled.body === 'string' ? settled.body : Buffer.from(settled.body).toString('utf8');
    const header = (name: string): string | undefined => {
      const value = answer.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    // Type, encoding and syntax are kept for the pull to check (main/remote/pull-pages.ts): a
    // page that is not JSON must fail the pull, never read as an empty list.
    const seen = { status: answer.status, contentType: header('content-type'), encoding: header('content-encoding') };
    try {
      return { ...seen, body: JSON.parse(text) as unknown };
    } catch (error) {
      return { ...seen, body: text, unparsable: error instanceof Error ? error.message : String(error) };
    }
  };
  return {
    get: (path, query) => send('GET', path, query, {}),
    postJson: (path, query, body) => send('POST', path, query, { 'content-type': 'application/json' }, JSON.stringify(body)),
    upload: (path, query, fileName, bytes) => {
      const boundary = `----workstation-${randomBytes(12).toString('hex')}`;
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="uploadedfile"; filename="${fileName}"\r\nContent-Type: ${XLSX_TYPE}\r\n\r\n`;
      const body = Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
      return send('POST', path, query, { 'content-type': `multipart/form-data; boundary=${boundary}` }, body);
    },
  };
}

const remoteGet = (deps: WorkstationDeps, row: RemoteProfileRow): RemoteGet => remoteCalls(deps, row).get;

/** Pulls running, by profile: their cancel. */
const cancels = new Map<string, AbortController>();

function progressOf(deps: WorkstationDeps, row: RemoteProfileRow, action: SyncEvent['action']): (text: string, ended?: boolean) => void {
  return (text, ended = false) =>
    deps.events.emit('sync', { profile_id: row.pkid, profile: row.name, action, text, ended } satisfies SyncEvent);
}

function pullOf(deps: WorkstationDeps, row: RemoteProfileRow, allowMassDelete = false): () => Promise<SyncPullAnswer> {
  return async () => {
    if (running.has(row.pkid)) throw new ApiError(409, 'conflict', `A pull or push of ${row.name} is already running: wait for it to end.`);
    const progress = progressOf(deps, row, 'pull');
    const cancel = new AbortController();
    const pull = pullMirror({
      dataDir: deps.dataDir,
      profilePkid: row.pkid,
      deployment: row.name,
      username: row.username,
      homeHierarchy: row.home_hierarchy,
      get: remoteGet(deps, row),
      signal: cancel.signal,
      allowMassDelete,
      onProgress: (step) =>
        progress(
          step.model_type
            ? `${step.model_type}: ${step.done.toLocaleString('en-US')}`
            : `${step.phase}: ${step.done.toLocaleString('en-US')}`,
        ),
      // The workbooks' connection to the mirror a whole pull replaces is let go first.
      beforeReplace: () => deps.mirrors.forget(row.pkid),
    });
    running.set(row.pkid, pull);
    cancels.set(row.pkid, cancel);
    try {
      const answer = await pull;
      progress(`pulled: ${answer.mode === 'full' ? 'everything' : `${answer.changed ?? 0} changed instances`}`, true);
      return answer;
    } catch (error) {
      progress(cancel.signal.aborted ? 'canceled' : 'failed', true);
      if (cancel.signal.aborted)
        throw new ApiError(409, 'canceled', `The pull of ${row.name} was canceled: its mirror is as it was before it.`);
      throw error;
    } finally {
      running.delete(row.pkid);
      cancels.delete(row.pkid);
    }
  };
}

/** Pushes running, by workbook id: one at a time for a workbook. */
const pushing = new Set<string>();

async function push(deps: WorkstationDeps, ctx: RequestContext, row: RemoteProfileRow): Promise<ApiResponse> {
  const body = jsonBody(ctx);
  const id = isJsonObject(body) && typeof body.workbook === 'string' ? body.workbook : undefined;
  if (!id)
    throw new ApiError(400, 'validation-failed', "'workbook' must be the id of a staged workbook for this profile.", [
      { field: 'workbook', message: 'a workbook id' },
    ]);
  const who: Who = { principal: ctx.principal, callerPath: ctx.callerPath };
  const record = deps.workbooks.find(who, id);
  if (record.profile_pkid !== row.pkid)
    throw new ApiError(
      409,
      'workbook-not-for-profile',
      `This workbook is not staged for ${row.name}: only a workbook made for a profile is pushed to it.`,
    );
  if (pushing.has(id)) throw new ApiError(409, 'conflict', 'This workbook is being pushed already: wait for that push to end.');
  pushing.add(id);
  try {
    const answer = await pushWorkbook(
      {
        store: deps.store,
        books: deps.workbooks,
        runs: deps.workbookRuns,
        remote: remoteCalls(deps, row),
        pull: pullOf(deps, row),
        now: () => deps.store.now(),
        profileName: row.name,
        onProgress: progressOf(deps, row, 'push'),
      },
      who,
      id,
    );
    return json(200, answer);
  } finally {
    pushing.delete(id);
  }
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

/** A pull's body, optional: `{"allow_mass_delete": true}` once the user confirmed what it removes (README: the mass-delete guard). */
function allowsMassDelete(ctx: RequestContext): boolean {
  const body = jsonBody(ctx);
  if (!isJsonObject(body)) return false;
  if (body.allow_mass_delete !== undefined && typeof body.allow_mass_delete !== 'boolean')
    throw new ApiError(400, 'validation-failed', "'allow_mass_delete' must be true or false.", [
      { field: 'allow_mass_delete', message: 'true or false' },
    ]);
  return body.allow_mass_delete === true;
}

export const syncRoutes: WorkstationRouteGroup = {
  prefix: 'sync',
  async handle(deps, ctx, rest) {
    const [name, action, ...more] = rest;
    const cancel = action === 'pull' && more.length === 1 && more[0] === 'cancel';
    if (name === undefined || (more.length > 0 && !cancel) || (action !== undefined && action !== 'pull' && action !== 'push'))
      throw notFound(`No workstation endpoint at ${ctx.path}: use /workstation/sync/<profile>/, .../pull/, .../pull/cancel/ or .../push/.`);
    const row = usableProfile(deps, ctx, name);
    if (action === undefined) {
      if (ctx.method !== 'GET') throw methodNotAllowed(ctx, 'GET');
      return json(200, status(deps, row));
    }
    if (ctx.method !== 'POST') throw methodNotAllowed(ctx, 'POST');
    if (cancel) {
      const running = cancels.get(row.pkid);
      running?.abort();
      return json(200, { success: true, canceled: running !== undefined });
    }
    if (action === 'push') return push(deps, ctx, row);
    return json(200, await pullOf(deps, row, allowsMassDelete(ctx))());
  },
};
