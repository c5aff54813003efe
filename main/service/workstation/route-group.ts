import type { EventEmitter } from 'node:events';
import type { CredentialVault } from '../../remote/credential-vault';
import type { RemoteHub } from '../../remote/remote-hub';
import type { MirrorTargets } from '../../remote/mirror-targets';
import type { ApiRequest, ApiResponse } from '../api-types';
import type { Principal } from '../auth/principal';
import type { Store } from '../domain/store';
import type { RequestContext } from '../request-context';
import type { RemoteProfilesRepo } from '../store/remote-profiles-repo';
import type { WorkbookRuns } from '../workbooks/workbook-runs';
import type { StagedWorkbooks } from '../workbooks/staged-workbooks';
import type { Viewers } from '../viewer/viewers';
import type { Reverts } from '../revert/reverts';

/** What the workstation's own endpoints use: the Local store, remote profiles, the vault and the proxy. */
export interface WorkstationDeps {
  store: Store;
  /** The data folder: remote profiles' mirror workspaces are files in it (main/remote/mirror-workspace.ts). */
  dataDir: string;
  /** The profiles' mirrors as workbooks are checked against them. */
  mirrors: MirrorTargets;
  /** The service's events (`sync`: a pull's or push's progress). */
  events: EventEmitter;
  profiles: RemoteProfilesRepo;
  vault: CredentialVault;
  remote: RemoteHub;
  workbooks: StagedWorkbooks;
  /** Plans and loads of staged workbooks. */
  workbookRuns: WorkbookRuns;
  /** Reverts of finished loads, each a staged workbook of its own. */
  reverts: Reverts;
  /** Exports and files open read-only in the export viewer. */
  viewers: Viewers;
  /** An /api/ request answered in-process as `principal` (set once the pipeline exists): generated workbooks start from the API's own files. */
  apiAs: (principal: Principal, request: ApiRequest) => Promise<ApiResponse>;
}

/**
 * One family of `/workstation/<prefix>/...` endpoints. The pipeline has already authenticated
 * the caller, checked CSRF, Origin, body size and type; a group checks roles and reach itself
 * and throws ApiError for what it refuses. `rest` is the path after the prefix, split on `/`
 * without empty segments.
 */
export interface WorkstationRouteGroup {
  prefix: string;
  handle(deps: WorkstationDeps, ctx: RequestContext, rest: string[]): Promise<ApiResponse> | ApiResponse;
}

export { methodNotAllowed } from '../errors';
