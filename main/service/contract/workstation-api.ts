/**
 * The wire shapes of the workstation's own endpoints, under `/workstation/` (decisions.md,
 * Workstation endpoints). Types only, without Node or DOM types: the service, the renderer
 * (tsconfig.web.json includes this file) and the tests import it, so each shape is declared once.
 * Faults are the fault shape of decisions.md, as under /api/.
 */

import type { Fault } from './fault';

/** The request header that picks the workspace an /api/ request is answered in (README: live workspaces). */
export type WorkspaceHeaderName = 'x-workstation-workspace';
/** The name of the embedded workspace; any other value of the header names a remote profile. */
export type LocalWorkspaceName = 'Local';

/** Among the codes: `remote-unreachable`, `remote-timeout`, `remote-tls`, `remote-auth` for a live workspace. */
export type WorkstationFault = Fault;

/** How the proxy signs in to a remote: a session (`/noninteractivelogin/`, cookies, CSRF token) or Basic on every request. */
export type RemoteAuthMode = 'session' | 'basic';

/** What matters of a remote's release: from 21.1 on, api_version and X-Version must not be sent. */
export type ReleaseLine = 'before-21.1' | '21.1-or-later';

export interface RemoteTimeouts {
  /** Opening the TCP (and TLS) connection. */
  connect_ms: number;
  /** From sending a request to the last byte of a JSON or HTML answer. */
  response_ms: number;
  /** Longest silence inside a streamed answer (exports) or while sending a body. */
  idle_ms: number;
}

/** A remote profile as answered: never with its password. */
export interface RemoteProfile {
  id: string;
  name: string;
  base_url: string;
  username: string;
  auth_mode: RemoteAuthMode;
  /** PEM of the CA that signed the remote's certificate, for private TLS; null uses the system's CAs. */
  ca_pem: string | null;
  timeouts: RemoteTimeouts;
  /** The release as entered; null when not entered. */
  release: string | null;
  /** What the last connection test found. */
  detected_release: ReleaseLine | null;
  detected_at: string | null;
  /** What the proxy goes by: the entered release, else the detected one, else unknown (null). */
  release_line: ReleaseLine | null;
  /**
   * The node the remote user's part of the tree starts at (dot path or pkid), for deployments
   * without `/api/whoami/` (the spec has none); null: the remote's whoami says it.
   */
  home_hierarchy: string | null;
  /** Whether this process holds the profile's password (the vault may be memory only). */
  password_stored: boolean;
  /** The local admin who made it, and the node it belongs to: admins at or above that node may use it. */
  owner: string;
  hierarchy: string;
  created_at: string;
  updated_at: string;
}

/** Body of POST /workstation/remote-profiles/ (all but `password` and `ca_pem` required) and of PUT (any subset). */
export interface RemoteProfileInput {
  name?: string;
  base_url?: string;
  username?: string;
  /** Write-only: kept in the credential vault, never answered, never stored in plain text. */
  password?: string;
  auth_mode?: RemoteAuthMode;
  ca_pem?: string | null;
  timeouts?: Partial<RemoteTimeouts>;
  release?: string | null;
  /** A dot path such as `sys.hcs.Telco.Acme` or a node's pkid; null or empty clears it. */
  home_hierarchy?: string | null;
}

export interface CredentialVaultInfo {
  /** `memory`: server mode and the CLI, for the life of the process; `safe-storage`: the desktop app, encrypted by the OS. */
  kind: 'memory' | 'safe-storage';
  persistent: boolean;
  /** Set when passwords are less protected than a field engineer would assume (e.g. Linux without a key store). */
  warning: string | null;
}

/** GET /workstation/remote-profiles/ */
export interface RemoteProfileList {
  profiles: RemoteProfile[];
  vault: CredentialVaultInfo;
}

/** POST, GET, PUT of one profile. */
export interface RemoteProfileAnswer {
  success: true;
  profile: RemoteProfile;
}

/** DELETE of one profile. */
export interface RemoteProfileDeleted {
  success: true;
  id: string;
}

/** `no-home`: signed in, but the deployment does not say where the user sits and no home hierarchy is entered (or it is not found there). */
export type ConnectionVerdict =
  'ok' | 'no-password' | 'unreachable' | 'timeout' | 'tls' | 'wrong-credentials' | 'forbidden' | 'no-home' | 'unexpected';

/** POST /workstation/remote-profiles/<id>/test/: each part in words a field engineer can act on. */
export interface ConnectionTestResult {
  success: boolean;
  verdict: ConnectionVerdict;
  /** One sentence: what was found and what to do. */
  message: string;
  reachable: boolean;
  tls: { used: boolean; ok: boolean | null; problem: string | null };
  credentials: 'accepted' | 'refused' | 'not-tried';
  forbidden: boolean;
  release: { detected: ReleaseLine | null; entered: string | null; message: string };
  /**
   * Where the live tree starts: `whoami` (the remote says it), `profile` (the entered home
   * hierarchy, found there), or null (neither: `message` says what to enter).
   */
  home: { source: 'whoami' | 'profile' | null; hierarchy: string | null; pkid: string | null; message: string };
  /** Of the authenticated request, in milliseconds; null when none got through. */
  round_trip_ms: number | null;
}

/** One workspace the caller may choose: `Local`, and each remote profile it may use. */
export interface WorkspaceEntry {
  name: string;
  live: boolean;
  /** The remote's base URL for a live workspace. */
  base_url: string | null;
  profile_id: string | null;
  /** The profile's home hierarchy, where the live tree starts when the remote has no /api/whoami/. */
  home_hierarchy: string | null;
}

/** GET /workstation/workspaces/ */
export interface WorkspaceList {
  workspaces: WorkspaceEntry[];
}

/** What kind of model: the first part of its model type (`device/cucm/Phone` is a device model). */
export type WorkstationModelKind = 'data' | 'device' | 'relation';

/** What the API lets one do with a model's instances, from its schema meta's actions. */
export type WorkstationModelAction = 'add' | 'modify' | 'delete' | 'export' | 'bulk_load';

/** One model a node may hold, as the service's model registry declares it. */
export interface WorkstationModel {
  /** `relation/LineRelation`, `device/cucm/Phone`... */
  model_type: string;
  /** The model's own title (the schema's `title`). */
  title: string;
  description: string;
  kind: WorkstationModelKind;
  /** The list columns, in order; the first is the default order. */
  summary_attrs: { name: string; title: string }[];
  /** The fields that identify an instance; `hierarchy`: unique within one node rather than in the whole store. */
  business_key: { hierarchy: boolean; fields: string[] };
  actions: WorkstationModelAction[];
}

/**
 * GET /workstation/models/?hierarchy=<dot path or pkid>: the models the node may hold. The
 * service has no rule that ties a model to a node type, so every node may hold every model that
 * can be created through the API (data, device and relation models; never tool/ or view/):
 * relation models first, then device, then data, each in the registry's order.
 */
export interface WorkstationModelList {
  /**
   * The node asked about. In a live workspace (the `X-Workstation-Workspace` header) the remote
   * deployment checks that the caller may read it; its pkid, path and type are then null, as
   * only the remote knows them.
   */
  hierarchy: { requested: string; pkid: string | null; path: string | null; node_type: string | null };
  /** `Local`, or the remote profile the request named. */
  workspace: string;
  models: WorkstationModel[];
}

/**
 * POST /workstation/sync/<profile>/pull/: what a pull copied into the profile's mirror. `full`:
 * everything again (the first pull, or the home node changed, or too much changed); `changes`:
 * only the instances the remote's transactions since the last pull touched (`changed` of them).
 */
export interface SyncPullAnswer {
  mode: 'full' | 'changes';
  /** Local time of the pull's end (ISO 8601, no zone): "checked against the mirror of 09:40". */
  pulled_at: string;
  home_hierarchy: string;
  /** Instances in the mirror per model type (each mirrored model, 0 included): what the remote lists in the pulled scope. */
  counts: Record<string, number>;
  changed: number | null;
  /**
   * Models a pull of changes read whole again, because the mirror's count of them was not what
   * the remote lists (a workflow made or removed instances beside the one its transaction names).
   */
  reread: string[];
}

/** GET /workstation/sync/<profile>/: the profile's mirror, or `pulled_at: null` when it was never pulled. */
export interface SyncStatus {
  profile: string;
  pulled_at: string | null;
  mode: 'full' | 'changes' | null;
  home_hierarchy: string | null;
  counts: Record<string, number>;
}

/** A row whose plan the refreshed mirror changed before a push (a number taken meanwhile, a target modified or deleted). */
export interface PushChange {
  sheet: string;
  row: number;
  row_id: number;
  /** The row's plan action before and after the refresh. */
  was: string;
  now: string;
  message: string | null;
}

/**
 * POST /workstation/sync/<profile>/push/ `{workbook}`: what the push did. `resumed`: it went on
 * with a push an interruption had left; `pushed`: the rows its load carried; `loaded`/`failed`:
 * the workbook's rows with that remote outcome so far; `conflicts`/`errors`: rows the refreshed
 * plan kept back.
 */
export interface SyncPushAnswer {
  workbook: string;
  push_id: string | null;
  remote_transaction_id: string | null;
  resumed: boolean;
  pushed: number;
  loaded: number;
  failed: number;
  conflicts: number;
  errors: number;
  changed_since_plan: PushChange[];
}
