import { ApiError } from '../errors';
import type { Db } from '../store/db';
import { newTransactionId } from '../store/ids';
import type { TransactionsRepo } from '../store/transactions-repo';
import { currentState, INTERNAL, type TransactionEvent, type TxOutcome, type TxResult, type TxSpec } from './engine';
import { StepContext } from './step-context';

/**
 * One sub-transaction run inside a batch that is already an open SQLite transaction (a bulk
 * load's): its steps run in a savepoint, so a failing row is rolled back alone and the rows
 * before and after it in the batch keep their changes. It leaves the same step log and the same
 * transaction row as a transaction the engine runs by itself; both commit with the batch, so a
 * row is only seen as Success once its batch has committed.
 */
export interface BatchRowDeps {
  db: Db;
  repo: TransactionsRepo;
  now: () => string;
  onInternalError: (error: unknown, transactionId: string) => void;
}

export interface BatchRowOutcome extends TxOutcome {
  /** To emit once the batch has committed, never before. */
  event: TransactionEvent;
}

type InSavepoint = (run: () => TxResult) => TxResult;
const savepoints = new WeakMap<Db, InSavepoint>();

/**
 * One savepoint runner per connection, made once: better-sqlite3's `db.transaction()` builds
 * four wrappers each time it is called, 5 µs of every row's 150 when a load made one per row.
 */
function inSavepoint(db: Db): InSavepoint {
  let runner = savepoints.get(db);
  if (!runner) {
    runner = db.transaction((run: () => TxResult) => run());
    savepoints.set(db, runner);
  }
  return runner;
}

export function runRowInBatch(deps: BatchRowDeps, parentId: string, spec: TxSpec): BatchRowOutcome {
  const transactionId = newTransactionId();
  const started = deps.now();
  const ctx = new StepContext(deps.now);
  ctx.log('info', `Transaction started: ${spec.action} ${spec.detail}`.trim());
  let resourcePkid = spec.resourcePkid;
  let error: ApiError | undefined;
  let state = 'Unchanged';
  try {
    // Nested in the batch's transaction, better-sqlite3 runs this as a savepoint.
    const result = inSavepoint(deps.db)(() => spec.run(ctx));
    resourcePkid = result.resourcePkid;
    state = result.state;
    ctx.log('info', 'Transaction completed successfully.');
  } catch (thrown) {
    error = thrown instanceof ApiError ? thrown : INTERNAL;
    if (!(thrown instanceof ApiError)) deps.onInternalError(thrown, transactionId);
    ctx.log('error', `Transaction failed: ${error.message} Every step was rolled back.`);
  }
  const status = error ? 'Fail' : 'Success';
  const txRow = deps.repo.insertFinished({
    transaction_id: transactionId,
    parent_id: parentId,
    status,
    rolled_back: error ? 'Yes' : 'No',
    action: spec.action,
    detail: spec.detail,
    message: error?.message ?? '',
    username: spec.username,
    model_type: spec.modelType,
    hierarchy_pkid: spec.hierarchyPkid,
    hierarchy_path: spec.hierarchyPath,
    resource_pkid: resourcePkid,
    current_state: currentState(spec.modelType, resourcePkid, state),
    submitted_time: started,
    started_time: started,
    completed_time: deps.now(),
  });
  deps.repo.logAll(transactionId, ctx.logs, txRow);
  const event: TransactionEvent = { transaction_id: transactionId, status, parent_id: parentId, model_type: spec.modelType, resource_pkid: resourcePkid };
  return { transactionId, status, resourcePkid, error, event };
}

/**
 * A row that never ran (its load was cut by a crash, or stopped): recorded as a failed
 * sub-transaction, so the parent still lists every row of its workbook with its fate.
 */
export function recordRowNotRun(deps: BatchRowDeps, parentId: string, spec: Omit<TxSpec, 'run'>, message: string): void {
  const transactionId = newTransactionId();
  const time = deps.now();
  deps.repo.insertFinished({
    transaction_id: transactionId,
    parent_id: parentId,
    status: 'Fail',
    rolled_back: 'Yes',
    action: spec.action,
    detail: spec.detail,
    message,
    username: spec.username,
    model_type: spec.modelType,
    hierarchy_pkid: spec.hierarchyPkid,
    hierarchy_path: spec.hierarchyPath,
    resource_pkid: spec.resourcePkid,
    current_state: currentState(spec.modelType, spec.resourcePkid, 'Unchanged'),
    submitted_time: time,
    started_time: time,
    completed_time: time,
  });
  deps.repo.log(transactionId, 'error', time, message);
}
