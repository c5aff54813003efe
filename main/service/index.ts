import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { ApiRequest, ApiResponse } from './api-types';
import { Authenticator } from './auth/authenticator';
import { principalOfUser, type Principal } from './auth/principal';
import { Sessions } from './auth/sessions';
import { BulkLoadScheduler } from './bulkload/scheduler';
import { BulkLoads } from './bulkload/bulk-loads';
import { JobPool } from './jobs/job-pool';
import { SearchPool } from './search/search-pool';
import { bootstrapStore } from './bootstrap';
import { createPipeline, type Identified } from './request-pipeline';
import { createStore, type Store } from './domain/store';
import { ALL_MODELS } from './models/registry';
import { syncSummaryIndexes } from './store/summary-indexes';
import { ReadCache } from './routes/read-cache';
import { openDatabase } from './store/db';
import { SessionsRepo } from './store/sessions-repo';
import { RemoteProfilesRepo } from './store/remote-profiles-repo';
import { MemoryVault, type CredentialVault } from '../remote/credential-vault';
import { RemoteHub } from '../remote/remote-hub';
import { MirrorTargets } from '../remote/mirror-targets';
import { isoMicros, isoMicrosAt } from './store/ids';
import { WalCheckpointer } from './store/wal-checkpointer';
import { TransactionEngine, type TransactionEvent } from './transactions/engine';
import type { WorkbookQuota } from './workbooks/workbook-quota';
import { recoverPending } from './workbooks/sliced-apply';
import { StagedWorkbooks } from './workbooks/staged-workbooks';
import { WorkbookRuns } from './workbooks/workbook-runs';
import { Reverts } from './revert/reverts';
import { revertHooks } from './revert/revert-checks';
import { Viewers } from './viewer/viewers';
import type { WorkstationDeps } from './workstation';
import { eventFilter, type EventViewer } from './workstation/event-access';
import type { ServiceEvent } from './contract/service-events';
import { workspaceFile } from './workspace-file';

export type { ApiRequest, ApiResponse } from './api-types';
export type { Identified } from './request-pipeline';

export interface ServiceOptions {
  /** Folder holding the workspaces (one SQLite file each) and, later, uploads. */
  dataDir: string;
  /** Workspace name; `Local` is the embedded default. */
  workspace?: string;
  /** The release the service behaves as (versioning rules); default 20.1.1. */
  release?: string;
  clock?: () => Date;
  /** Admin password for a new store; else WORKSTATION_ADMIN_PASSWORD, else random. */
  adminPassword?: string;
  /** Where operational messages go (a 500's stack with its request id); default stderr. */
  log?: (line: string) => void;
  /** Where remote profiles' passwords are kept; default memory, for the life of the process (server mode, CLI). */
  vault?: CredentialVault;
  /** What one user may keep staged (workbooks, stored rows); default DEFAULT_WORKBOOK_QUOTA. */
  workbookQuota?: WorkbookQuota;
}

export interface Service {
  handle(request: ApiRequest): Promise<ApiResponse>;
  /**
   * For the HTTP host, before it reads a body: the answer to a request refused on its line and
   * headers alone (credentials, Origin, CSRF token, declared length and type), or undefined.
   */
  admit(head: ApiRequest): Promise<ApiResponse | undefined>;
  /**
   * For the HTTP host's event stream, which it answers itself: the caller of a request screened
   * as every request is (its principal, node path and the headers its answer carries), or the refusal.
   */
  identify(head: ApiRequest): Promise<Identified>;
  /** The filter of one event stream: the events this viewer may see (workstation/event-access.ts). */
  visibleEvents(viewer: EventViewer): (event: ServiceEvent) => boolean;
  /** A new file name for the HTTP host to stream an upload's body to (swept at the next open if left behind). */
  spoolPath(): string;
  /** Calls a route as a given user, skipping authentication (seeding, the desktop's own user). */
  handleAs(principal: Principal, request: ApiRequest): Promise<ApiResponse>;
  events: EventEmitter;
  /** Set once, when this open created the admin user with a random password. */
  generatedAdminPassword?: string;
  /** Transactions a killed process had left unfinished, failed and rolled back at this open. */
  recoveredTransactions: number;
  store: Store;
  /** The transaction queue, for in-process callers that submit work of their own (bulk loads). */
  engine: TransactionEngine;
  /** Bulk loads, for in-process callers that load a workbook they hold. */
  loads: BulkLoads;
  /** Staged workbooks, for in-process callers (the CLI). */
  workbooks: StagedWorkbooks;
  /** Resolves when every queued transaction has finished. */
  idle(): Promise<void>;
  close(): void;
}

export { MAX_JSON_BODY, bodyLimitFor, isServicePath } from './request-pipeline';
export { isUploadPath } from './request-screen';
export const DEFAULT_RELEASE = '20.1.1';

export { workspaceFile } from './workspace-file';

export async function createService(options: ServiceOptions): Promise<Service> {
  const clock = options.clock ?? (() => new Date());
  // Without an injected clock, no Date is made per stamp: a load row stamps a dozen times.
  const now = options.clock ? (): string => isoMicros(clock()) : (): string => isoMicrosAt(Date.now());
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const db = openDatabase(workspaceFile(options.dataDir, options.workspace));
  syncSummaryIndexes(db, ALL_MODELS);
  const store = createStore(db, now, join(options.dataDir, 'uploads', options.workspace ?? 'Local'));
  const internalError = (error: unknown, reference: string): void =>
    log(`[${reference}] internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const readCache = new ReadCache(db);
  const engine = new TransactionEngine(db, store.transactions, now, internalError, () => {
    store.nodes.clearCache();
    readCache.invalidate();
  });
  const file = workspaceFile(options.dataDir, options.workspace);
  const jobs = new JobPool(file, store);
  const checkpoints = new WalCheckpointer(db);
  const loads = new BulkLoads({ store, engine, pool: jobs, events: engine.events, now, onInternalError: internalError, checkpoints });
  const scheduler = new BulkLoadScheduler(store, engine, loads, clock);
  const searchPool = new SearchPool(file);
  loads.recover();
  const recoveredTransactions = engine.recoverInterrupted((transactionId) => scheduler.isWaiting(transactionId));
  const { generatedPassword } = await bootstrapStore(store, options.adminPassword ?? process.env.WORKSTATION_ADMIN_PASSWORD);
  const authenticator = new Authenticator(store);
  const sessions = new Sessions(new SessionsRepo(db), (userPkid) => principalOfUser(store, userPkid));
  // A changed user (role, node, password) must be read again: no cached login, no old session.
  engine.events.on('transaction', (event: TransactionEvent) => {
    if (event.model_type !== 'data/User' || event.status !== 'Success') return;
    authenticator.invalidate();
    if (event.resource_pkid) sessions.endAllOf(event.resource_pkid);
  });
  const vault = options.vault ?? new MemoryVault();
  const remote = new RemoteHub(vault);
  const profiles = new RemoteProfilesRepo(db);
  const mirrors = new MirrorTargets(options.dataDir, profiles);
  const workbookDeps = {
    store,
    pool: jobs,
    checkpoints,
    events: engine.events,
    now,
    onInternalError: internalError,
    targets: mirrors,
    quota: options.workbookQuota,
  };
  const workbooks = new StagedWorkbooks(workbookDeps);
  // A big edit a killed process left halfway is undone before anything reads the workbook.
  recoverPending(store);
  const workbookRuns = new WorkbookRuns({ ...workbookDeps, loads, reverts: revertHooks(store) }, workbooks);
  workbookRuns.recover();
  const reverts = new Reverts({ store, pool: jobs, workbooks, runs: workbookRuns, onInternalError: internalError, now });
  const workstation: WorkstationDeps = {
    store,
    dataDir: options.dataDir,
    mirrors,
    events: engine.events,
    profiles,
    vault,
    remote,
    workbooks,
    workbookRuns,
    reverts,
    viewers: new Viewers(),
    apiAs: () => Promise.reject(new Error('the pipeline is not ready')),
  };
  const pipeline = createPipeline({
    store,
    engine,
    authenticator,
    sessions,
    readCache,
    scheduler,
    searchPool,
    loads,
    jobs,
    workstation,
    release: options.release ?? DEFAULT_RELEASE,
    workspace: options.workspace ?? 'Local',
    internalError,
  });
  workstation.apiAs = pipeline.handleAs;
  scheduler.armAll();
  return {
    handle: pipeline.handle,
    admit: pipeline.admit,
    identify: pipeline.identify,
    visibleEvents: (viewer) => eventFilter({ transactions: store.transactions, workbooks, profiles, store }, viewer),
    spoolPath: () => join(store.uploads.folder, `${randomBytes(12).toString('hex')}.body.partial`),
    handleAs: pipeline.handleAs,
    events: engine.events,
    generatedAdminPassword: generatedPassword,
    recoveredTransactions,
    store,
    engine,
    loads,
    workbooks,
    idle: () => engine.idle(),
    close() {
      void remote.close();
      mirrors.close();
      searchPool.close();
      jobs.close();
      scheduler.close();
      engine.close();
      checkpoints.close();
      db.close();
    },
  };
}
