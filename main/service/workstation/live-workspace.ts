import { targetOf, type RemoteTarget } from '../../remote/remote-target';
import type { ApiRequest, ApiResponse } from '../api-types';
import type { WorkspaceHeaderName } from '../contract/workstation-api';
import { usableProfile, type Asker } from './profile-access';
import type { RemoteProfileRow } from '../store/remote-profiles-repo';
import type { WorkstationDeps } from './route-group';

/**
 * How a request picks its workspace: the `X-Workstation-Workspace` header, on HTTP and IPC
 * alike, naming a remote profile (by name or id). Absent, empty or `Local`: the embedded store.
 * A header rather than a path prefix, so every /api/ URL stays the spec's and the renderer's
 * transport adds one header to all its calls. It never picks a host: it picks a profile, and
 * the profile's base URL is the only place the request can go.
 */
export const WORKSPACE_HEADER: WorkspaceHeaderName = 'x-workstation-workspace';

/** The profile an /api/ request names, or undefined for the Local workspace. */
export function liveWorkspaceOf(request: ApiRequest): string | undefined {
  const value = request.headers?.[WORKSPACE_HEADER]?.trim();
  return value === undefined || value === '' || value.toLowerCase() === 'local' ? undefined : value;
}

/**
 * An /api/ request of a live workspace, after the local service authenticated the caller and
 * checked its CSRF token, Origin, body size and type: sent to the remote with the profile's
 * credentials if the caller may use that profile (local admins only, see profile-access.ts).
 */
export function forwardLive(deps: WorkstationDeps, asker: Asker, workspace: string, request: ApiRequest): Promise<ApiResponse> {
  const row = usableProfile(deps, asker, workspace);
  let target = targets.get(row);
  if (!target) targets.set(row, (target = targetOf(row)));
  return deps.remote.forward(target, request);
}

/**
 * A profile's target made once per row: the repository keeps the same row object until the
 * profile changes, and parsing its URL on every request showed in the remote bench's profile.
 */
const targets = new WeakMap<RemoteProfileRow, RemoteTarget>();
