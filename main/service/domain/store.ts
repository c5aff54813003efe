import type Database from 'better-sqlite3';
import type { Db } from '../store/db';
import { InstancesRepo } from '../store/instances-repo';
import { NodesRepo } from '../store/nodes-repo';
import { TransactionsRepo } from '../store/transactions-repo';
import { CredentialsRepo } from '../store/credentials-repo';
import { UploadsRepo } from '../store/uploads-repo';
import { BulkLoadsRepo } from '../store/bulk-loads-repo';

/** The repositories of one workspace, handed to routes and workflows together. */
export interface Store {
  db: Db;
  nodes: NodesRepo;
  instances: InstancesRepo;
  transactions: TransactionsRepo;
  credentials: CredentialsRepo;
  uploads: UploadsRepo;
  bulkLoads: BulkLoadsRepo;
  now: () => string;
  /** A prepared statement per distinct SQL text; list SQL varies only with the request's shape. */
  statement(sql: string): Statement;
}

type Statement = Database.Statement<unknown[]>;

export function createStore(db: Db, now: () => string, uploadsFolder: string): Store {
  const statements = new Map<string, Statement>();
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
    credentials: new CredentialsRepo(db),
    uploads: new UploadsRepo(db, uploadsFolder, now),
    bulkLoads: new BulkLoadsRepo(db),
    now,
  };
}
