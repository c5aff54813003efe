import type { Principal } from '../auth/principal';
import type { Store } from '../domain/store';
import type { Caller } from '../domain/guards';
import type { BulkLoadRow } from '../store/bulk-loads-repo';
import type { NodeRow } from '../store/nodes-repo';
import type { ScheduledLoadRow } from '../store/scheduled-loads-repo';
import type { TransactionEngine } from '../transactions/engine';
import type { BulkLoads } from './bulk-loads';

/** setTimeout takes at most about 24.8 days; a later load is re-armed when that wait ends. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Bulk loads queued for a moment. The workbook is read into the load's spool when the load is
 * scheduled (a bad file is refused at once, not at 3 a.m.) and its parent is Queued; at the
 * moment, the rows run with the rights their user has then. Waiting loads are re-armed at every
 * start.
 */
export class BulkLoadScheduler {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: Store,
    private readonly engine: TransactionEngine,
    private readonly loads: BulkLoads,
    private readonly clock: () => Date,
  ) {}

  isWaiting(transactionId: string): boolean {
    return this.store.scheduledLoads.isWaiting(transactionId);
  }

  schedule(caller: Caller, load: BulkLoadRow, node: NodeRow, runAt: Date): string {
    const transactionId = this.loads.schedule(caller, load, node, (id) => {
      this.store.scheduledLoads.add({
        transaction_id: id,
        upload_id: load.upload_id,
        hierarchy_pkid: node.pkid,
        user_pkid: caller.principal.pkid,
        run_at: runAt.toISOString(),
      });
    });
    this.armAll();
    return transactionId;
  }

  /** Arms a timer for every waiting load (at start, and after each new one). */
  armAll(): void {
    this.close();
    for (const row of this.store.scheduledLoads.waiting()) this.arm(row);
  }

  /**
   * A timer for one waiting load. When it fires the clock is asked again: a wait longer than a
   * timer takes is armed again, and so is a timer that fired before the moment (Node's timers
   * may fire a millisecond early by the wall clock): a load never starts before its moment.
   */
  private arm(row: ScheduledLoadRow): void {
    const wait = Math.max(0, new Date(row.run_at).getTime() - this.clock().getTime());
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (new Date(row.run_at).getTime() > this.clock().getTime()) this.arm(row);
        else this.fire(row);
      },
      Math.min(wait, MAX_TIMER_MS),
    );
    // A waiting load alone does not keep a process (a test, the CLI) alive.
    timer.unref();
    this.timers.add(timer);
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private fire(row: ScheduledLoadRow): void {
    // Started once only: a timer armed twice (armAll again meanwhile) finds it started.
    if (!this.store.scheduledLoads.start(row.transaction_id)) return;
    const caller = this.callerOf(row.user_pkid);
    const node = this.store.nodes.get(row.hierarchy_pkid);
    const started = caller && node ? this.loads.startWaiting(caller, row.transaction_id, node) : undefined;
    if (started) return;
    const gone = !caller ? 'its user no longer exists' : !node ? 'its hierarchy node no longer exists' : 'its rows are gone';
    this.store.db.transaction(() => this.store.bulkLoads.remove(row.transaction_id))();
    this.engine.failWaitingGroup(row.transaction_id, `The scheduled bulk load did not run: ${gone}.`);
  }

  /** The load runs with the rights its user has when it runs, not when it was scheduled. */
  private callerOf(userPkid: string): Caller | undefined {
    const user = this.store.instances.get(userPkid);
    const node = user && this.store.nodes.get(user.hierarchyPkid);
    if (!user || !node) return undefined;
    const principal: Principal = {
      pkid: user.pkid,
      username: String(user.data.username),
      role: (user.data.role as Principal['role'] | undefined) ?? 'readonly',
      hierarchyPkid: user.hierarchyPkid,
    };
    return { principal, callerPath: node.path };
  }
}
