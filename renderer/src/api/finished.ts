import type { FinishedTransactionStatus } from '../../../main/service/contract/transaction-api';

const FINISHED_STATUSES: FinishedTransactionStatus[] = ['Success', 'Fail', 'Success With Async Failures'];

/** The statuses a transaction ends in: anything else is still running. */
export const FINISHED: ReadonlySet<string> = new Set<string>(FINISHED_STATUSES);
