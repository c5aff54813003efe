import { ApiError } from '../errors';

export interface PendingLog {
  severity: 'error' | 'warning' | 'info' | 'verbose' | 'debug';
  message: string;
  time: string;
}

/**
 * What a workflow sees while it runs: numbered steps whose Start, End and skip messages go to
 * the transaction log in the forms the spec shows. Steps run inside the transaction's one
 * SQLite transaction, so a throwing step undoes every step before it.
 */
export class StepContext {
  readonly logs: PendingLog[] = [];
  private stepNumber = 0;

  constructor(private readonly now: () => string) {}

  log(severity: PendingLog['severity'], message: string): void {
    this.logs.push({ severity, message, time: this.now() });
  }

  step<T>(title: string, work: () => T): T {
    const n = ++this.stepNumber;
    this.log('info', `Step ${n} - Start ${title}`);
    try {
      const result = work();
      this.log('info', `Step ${n} - End`);
      return result;
    } catch (error) {
      const message = error instanceof ApiError ? error.message : 'an internal error stopped the step';
      this.log('error', `Step ${n} - Failed: ${message}`);
      throw error;
    }
  }

  /** A step that runs only when `unmetReason` is null; otherwise it is logged as skipped. */
  stepIf<T>(title: string, unmetReason: string | null, work: () => T): T | undefined {
    if (unmetReason !== null) {
      const n = ++this.stepNumber;
      this.log('info', `Step ${n} - Condition unmet, skipping step. ${title}: ${unmetReason}`);
      return undefined;
    }
    return this.step(title, work);
  }
}
