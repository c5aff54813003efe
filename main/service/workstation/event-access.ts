import type { Principal } from '../auth/principal';
import type { ServiceEvent } from '../contract/service-events';
import { isWithin } from '../domain/hierarchy';
import type { Store } from '../domain/store';
import type { RemoteProfilesRepo } from '../store/remote-profiles-repo';
import type { TransactionsRepo } from '../store/transactions-repo';
import type { StagedWorkbooks } from '../workbooks/staged-workbooks';
import { mayUse } from './profile-access';

/**
 * Which service events a signed-in user may see (decisions.md, Workstation endpoints: "only the
 * events that user may see"), with the rules of the reads they announce: a transaction, or a
 * load's progress, when the transaction's hierarchy lies at or below the user's node (as
 * `GET /api/tool/Transaction/<id>/` without traversal=up); a staged workbook when its owner is
 * the user, or the user is an admin at or above the owner's node (as `/workstation/workbooks/`);
 * a pull or push of a remote profile to those the profile answers to (as
 * `/workstation/remote-profiles/<id>/`: its maker and admins at or above the maker's node).
 */
export interface EventViewer {
  principal: Principal;
  /** Dot path of the viewer's node. */
  callerPath: string;
}

export interface EventAccessDeps {
  transactions: Pick<TransactionsRepo, 'get'>;
  workbooks: Pick<StagedWorkbooks, 'visibleTo'>;
  profiles: Pick<RemoteProfilesRepo, 'find'>;
  store: Pick<Store, 'nodes'>;
}

/**
 * A transaction's hierarchy never changes, so its answer is kept: a load's progress comes once
 * per batch, and each would otherwise read the same row again. The cache is per stream and
 * bounded; emptied when full, it only costs a few reads again.
 */
const MAX_REMEMBERED = 4096;

/** The filter of one stream: true for an event the viewer may see. */
export function eventFilter(deps: EventAccessDeps, viewer: EventViewer): (event: ServiceEvent) => boolean {
  const remembered = new Map<string, boolean>();
  const transactionVisible = (transactionId: string): boolean => {
    const known = remembered.get(transactionId);
    if (known !== undefined) return known;
    const row = deps.transactions.get(transactionId);
    // Not stored yet (or gone): not shown, and not remembered, so a later event looks again.
    if (!row) return false;
    const visible = isWithin(row.hierarchy_path, viewer.callerPath);
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(transactionId, visible);
    return visible;
  };
  return (event) => {
    switch (event.type) {
      case 'transaction':
      case 'progress':
        return transactionVisible(event.transaction_id);
      case 'workbook':
        // Not cached: a workbook can be deleted, and its events are few (one per edit or stage).
        return deps.workbooks.visibleTo(viewer, event.id) !== undefined;
      case 'sync': {
        // A pull's news names the profile, its models and the remote's transactions: only for
        // those to whom the profile answers, never to an admin it answers 404 (issue 30, finding 9).
        const row = deps.profiles.find(event.profile_id);
        return row !== undefined && mayUse(deps, viewer, row);
      }
    }
  };
}

/**
 * The events a stream carries at all: a load's sub-transactions are not relayed one by one
 * (100,000 rows would be 100,000 events), its progress event says how far it is.
 */
export function isRelayed(event: ServiceEvent): boolean {
  return event.type !== 'transaction' || event.parent_id === null;
}
