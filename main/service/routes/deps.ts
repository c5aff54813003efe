import type { Authenticator } from '../auth/authenticator';
import type { Store } from '../domain/store';
import type { TransactionEngine } from '../transactions/engine';
import type { BulkLoadScheduler } from '../bulkload/scheduler';
import type { SearchPool } from '../search/search-pool';
import type { BulkLoads } from '../bulkload/bulk-loads';
import type { JobPool } from '../jobs/job-pool';
import type { ReadCache } from './read-cache';

/** What every route handler may use: one workspace's store and transaction engine. */
export interface RouteDeps {
  store: Store;
  engine: TransactionEngine;
  authenticator: Authenticator;
  release: string;
  /** The workspace this service serves (`Local`, or a remote profile's mirror). */
  workspace: string;
  readCache: ReadCache;
  scheduler: BulkLoadScheduler;
  /** Search workers, started on the first search. */
  searchPool: SearchPool;
  /** Bulk loads: read into a spool by a worker, then run in batches. */
  loads: BulkLoads;
  /** Workers for the heavy jobs: reading and validating workbooks, writing exports. */
  jobs: JobPool;
}
