import { dropSecret, keepSecret, rowAddress, secretFor } from '../../remote/bound-secret';
import { testConnection } from '../../remote/connection-test';
import { effectiveReleaseLine, targetOf } from '../../remote/remote-target';
import { mirrorFile, removeDatabaseFiles } from '../../remote/mirror-workspace';
import type { ApiResponse } from '../api-types';
import type { RemoteProfile, RemoteProfileAnswer, RemoteProfileDeleted, RemoteProfileList } from '../contract/workstation-api';
import { conflict, notFound, permissionDenied } from '../errors';
import { jsonBody, type RequestContext } from '../request-context';
import { json } from '../responses';
import { newPkid } from '../store/ids';
import type { RemoteProfileRow } from '../store/remote-profiles-repo';
import { assertAdmin, mayUse, usableProfile } from './profile-access';
import { checkProfileInput, DEFAULT_TIMEOUTS, type CheckedInput } from './profile-input';
import { methodNotAllowed, type WorkstationDeps, type WorkstationRouteGroup } from './route-group';

/**
 * `/workstation/remote-profiles/`: GET lists the profiles the caller may use, POST makes one
 * (admins); `<id>/`: GET, PUT (any subset of fields; a password goes to the vault), DELETE;
 * `<id>/test/`: POST runs "Test connection". `<id>` is the profile's id or its name.
 */
export const remoteProfileRoutes: WorkstationRouteGroup = {
  prefix: 'remote-profiles',
  async handle(deps, ctx, rest) {
    if (rest.length === 0) {
      if (ctx.method === 'GET') return list(deps, ctx);
      if (ctx.method === 'POST') return create(deps, ctx);
      throw methodNotAllowed(ctx, 'GET or POST');
    }
    const row = usableProfile(deps, ctx, rest[0]);
    if (rest.length === 1) {
      if (ctx.method === 'GET') return answer(deps, row);
      if (ctx.method === 'PUT') return update(deps, ctx, row);
      if (ctx.method === 'DELETE') return remove(deps, row);
      throw methodNotAllowed(ctx, 'GET, PUT or DELETE');
    }
    if (rest.length === 2 && rest[1] === 'test') {
      if (ctx.method !== 'POST') throw methodNotAllowed(ctx, 'POST');
      return runTest(deps, row);
    }
    throw notFound(`No workstation endpoint at ${ctx.path}.`);
  },
};

export function profileView(deps: WorkstationDeps, row: RemoteProfileRow): RemoteProfile {
  const owner = deps.store.instances.get(row.owner_pkid);
  return {
    id: row.pkid,
    name: row.name,
    base_url: row.base_url,
    username: row.username,
    auth_mode: row.auth_mode,
    ca_pem: row.ca_pem,
    timeouts: { connect_ms: row.connect_timeout_ms, response_ms: row.response_timeout_ms, idle_ms: row.idle_timeout_ms },
    release: row.release,
    detected_release: row.detected_release,
    detected_at: row.detected_at,
    release_line: effectiveReleaseLine(row),
    home_hierarchy: row.home_hierarchy,
    password_stored: secretFor(deps.vault, rowAddress(row)) !== undefined,
    owner: owner ? String(owner.data.username) : '(a deleted user)',
    hierarchy: deps.store.nodes.get(row.hierarchy_pkid)?.path ?? row.hierarchy_pkid,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function list(deps: WorkstationDeps, ctx: RequestContext): ApiResponse {
  const profiles = deps.profiles
    .list()
    .filter((row) => mayUse(deps, ctx, row))
    .map((row) => profileView(deps, row));
  const body: RemoteProfileList = { profiles, vault: deps.vault.info() };
  return json(200, body);
}

function answer(deps: WorkstationDeps, row: RemoteProfileRow): ApiResponse {
  const body: RemoteProfileAnswer = { success: true, profile: profileView(deps, row) };
  return json(200, body);
}

function assertFreeName(deps: WorkstationDeps, name: string | undefined, pkid?: string): void {
  if (name === undefined) return;
  const holder = deps.profiles.find(name);
  if (holder && holder.pkid !== pkid) throw conflict(`A remote profile named ${name} exists already: choose another name.`);
}

function create(deps: WorkstationDeps, ctx: RequestContext): ApiResponse {
  assertAdmin(ctx, 'making remote profiles');
  const { fields, password } = checkProfileInput(jsonBody(ctx), true);
  assertFreeName(deps, fields.name);
  const now = deps.store.now();
  const row: RemoteProfileRow = {
    pkid: newPkid(),
    name: fields.name ?? '',
    base_url: fields.base_url ?? '',
    username: fields.username ?? '',
    auth_mode: fields.auth_mode ?? 'session',
    ca_pem: fields.ca_pem ?? null,
    connect_timeout_ms: fields.connect_timeout_ms ?? DEFAULT_TIMEOUTS.connect_ms,
    response_timeout_ms: fields.response_timeout_ms ?? DEFAULT_TIMEOUTS.response_ms,
    idle_timeout_ms: fields.idle_timeout_ms ?? DEFAULT_TIMEOUTS.idle_ms,
    release: fields.release ?? null,
    home_hierarchy: fields.home_hierarchy ?? null,
    detected_release: null,
    detected_at: null,
    owner_pkid: ctx.principal.pkid,
    hierarchy_pkid: ctx.principal.hierarchyPkid,
    created_at: now,
    updated_at: now,
  };
  deps.profiles.insert(row);
  if (password !== undefined) keepSecret(deps.vault, rowAddress(row), password);
  return answer(deps, row);
}

function update(deps: WorkstationDeps, ctx: RequestContext, row: RemoteProfileRow): ApiResponse {
  const { fields, password }: CheckedInput = checkProfileInput(jsonBody(ctx), false);
  assertFreeName(deps, fields.name, row.pkid);
  // The password is the owner's: another admin who may use the profile may change where it
  // points, never type the secret it sends (issue 30, finding 5).
  if (password !== undefined && ctx.principal.pkid !== row.owner_pkid) {
    throw permissionDenied(
      `only ${profileView(deps, row).owner}, who made ${row.name}, may enter its password; ${ctx.principal.username} may change its other settings.`,
    );
  }
  const changed: RemoteProfileRow = { ...row, ...fields, updated_at: deps.store.now() };
  deps.profiles.update(changed);
  // Another address or user: the old session and pool must not carry the next request.
  deps.remote.forget(row.pkid);
  // A secret follows its address: another URL, user name or CA drops it, and its owner enters it again.
  const moved = changed.base_url !== row.base_url || changed.username !== row.username || changed.ca_pem !== row.ca_pem;
  if (password !== undefined) keepSecret(deps.vault, rowAddress(changed), password);
  else if (moved) dropSecret(deps.vault, row.pkid);
  return answer(deps, changed);
}

function remove(deps: WorkstationDeps, row: RemoteProfileRow): ApiResponse {
  deps.profiles.delete(row.pkid);
  dropSecret(deps.vault, row.pkid);
  deps.remote.forget(row.pkid);
  // Its mirror goes with it: a copy of a remote no profile names any more.
  deps.mirrors.forget(row.pkid);
  removeDatabaseFiles(mirrorFile(deps.dataDir, row.pkid));
  const body: RemoteProfileDeleted = { success: true, id: row.pkid };
  return json(200, body);
}

async function runTest(deps: WorkstationDeps, row: RemoteProfileRow): Promise<ApiResponse> {
  const result = await testConnection(deps.remote, deps.vault, targetOf(row), row.release, row.home_hierarchy);
  if (result.release.detected !== null) deps.profiles.setDetectedRelease(row.pkid, result.release.detected, deps.store.now());
  return json(200, result);
}
