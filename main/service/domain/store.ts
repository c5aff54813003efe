import type Database from 'better-sqlite3';
import type { Db } from '../store/db';
import { WorkbookPushesRepo } from '../store/workbook-pushes-repo';
import { MappingsRepo } from '../store/mappings-repo';
import { InstancesRepo } from '../store/instances-repo';
import { NodesRepo } from '../store/nodes-repo';
import { TransactionsRepo } from '../store/transactions-repo';
import { TransactionChangesRepo } from '../store/transaction-changes-repo';
import { RevertsRepo } from '../store/reverts-repo';
import { CredentialsRepo } from '../store/credentials-repo';
import { UploadsRepo } from '../store/uploads-repo';
import { BulkLoadsRepo } from '../store/bulk-loads-repo';
import { ScheduledLoadsRepo } from '../store/scheduled-loads-repo';
import { KeyHoldersRepo } from '../store/key-holders-repo';
import { WorkbooksRepo } from '../store/workbooks-repo';
import { WorkbookOutcomesRepo, WorkbookPlanRepo } from '../store/workbook-runs-repo';

/** The repositories of one workspace, handed to routes and workflows together. */
export interface Store {
  db: Db;
  nodes: NodesRepo;
  instances: InstancesRepo;
  transactions: TransactionsRepo;
  /** What each bulk-load row changed, kept so that its load can be reverted. */
  changes: TransactionChangesRepo;
  credentials: CredentialsRepo;
  uploads: UploadsRepo;
  bulkLoads: BulkLoadsRepo;
  scheduledLoads: ScheduledLoadsRepo;
  /** Who holds a business key, the fast way (validation's look-ups). */
  keyHolders: KeyHoldersRepo;
  /** Staged workbooks (workbooks/). */
  workbooks: WorkbooksRepo;
  /** A staged workbook's last plan, and each row's load outcome. */
  workbookPlan: WorkbookPlanRepo;
  workbookOutcomes: WorkbookOutcomesRepo;
  /** Pushes of staged workbooks to remote profiles (main/remote/sync-push.ts). */
  workbookPushes: WorkbookPushesRepo;
  /** Staged workbooks that revert a load (revert/). */
  reverts: RevertsRepo;
  /** Staged workbooks' mapping steps and the mappings saved per customer node. */
  mappings: MappingsRepo;
  now: () => string;
  /** A prepared statement per distinct SQL text; list SQL varies only with the request's shape. */
  statement(sql: string): Statement;
}

type Statement = Database.Statement<unknown[]>;

/**
 * `uploadsFolder` null: the repositories on a worker thread's read-only connection (validation,
 * exports, reading a workbook). Uploads stay the main thread's: a worker is handed file paths,
 * never the folder, so it can never sweep or write it.
 */
export function createStore(db: Db, now: () => string, uploadsFolder: string | null): Store {
  const statements = new Map<string, Statement>();
  const uploads = uploadsFolder === null ? undefined : new UploadsRepo(db, uploadsFolder, now);
  return {
    statement(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size > 500) statements.clear();
        statement = db.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    db,
    nodes: new NodesRepo(db),
    instances: new InstancesRepo(db, now),
    transactions: new TransactionsRepo(db),
    changes: new TransactionChangesRepo(db),
    credentials: new CredentialsRepo(db),
    get uploads(): UploadsRepo {
      if (!uploads) throw new Error('uploads are not available on a worker connection');
      return uploads;
    },
    bulkLoads: new BulkLoadsRepo(db),
    scheduledLoads: new ScheduledLoadsRepo(db),
    keyHolders: new KeyHoldersRepo(db),
    workbooks: new WorkbooksRepo(db),
    workbookPlan: new WorkbookPlanRepo(db),
    workbookOutcomes: new WorkbookOutcomesRepo(db),
    workbookPushes: new WorkbookPushesRepo(db),
    mappings: new MappingsRepo(db),
    reverts: new RevertsRepo(db),
    now,
  };
}
