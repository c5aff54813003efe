import type { PushChange, SyncPushAnswer } from '../../../../main/service/contract/workstation-api';
import { mirrorTime } from '../../store/mirror-time';
import { useStores } from '../../store/stores';
import type { WorkbookSummary } from '../../store/workbooks-store';

const plural = (count: number, word: string): string => `${count.toLocaleString()} ${word}${count === 1 ? '' : 's'}`;

/**
 * What a push did: the rows it carried and their remote outcome, the rows kept back (a conflict
 * or an error in the plan made again against the refreshed mirror) and those whose plan changed
 * since the last one. Kept-back and failed rows are fixed in the workbook, then pushed again:
 * rows already loaded are never pushed twice.
 */
export function PushReport({
  answer,
  checkedAgainst,
  workbook,
}: {
  answer: SyncPushAnswer;
  checkedAgainst: string | null;
  workbook: WorkbookSummary;
}) {
  const { nav } = useStores();
  const keptBack = answer.conflicts + answer.errors;
  const toResolve = keptBack + answer.failed > 0 || answer.changed_since_plan.length > 0;
  return (
    <div className={`sync-push-report${toResolve ? ' to-resolve' : ''}`} role="status" aria-label={`Push of ${workbook.name}`}>
      <p>
        <strong>
          {answer.resumed ? 'Went on with an interrupted push: ' : ''}
          {plural(answer.pushed, 'row')} pushed
        </strong>
        {answer.remote_transaction_id && <span className="muted"> in remote transaction {answer.remote_transaction_id}</span>}
        {checkedAgainst && <span className="muted">; planned again against the mirror of {mirrorTime(checkedAgainst)}</span>}
      </p>
      <dl className="fields sync-push-figures">
        <dt>Loaded</dt>
        <dd data-testid="push-loaded">{answer.loaded.toLocaleString()}</dd>
        <dt>Failed</dt>
        <dd data-testid="push-failed">{answer.failed.toLocaleString()}</dd>
        <dt>Kept back</dt>
        <dd data-testid="push-kept-back">
          {plural(keptBack, 'row')}: {answer.conflicts.toLocaleString()} in conflict, {answer.errors.toLocaleString()} in error
        </dd>
      </dl>
      {answer.changed_since_plan.length > 0 && <ChangedSincePlan changes={answer.changed_since_plan} />}
      <button type="button" onClick={() => nav.getState().go({ view: 'workbook', workbookId: workbook.id })}>
        {toResolve ? `Resolve in ${workbook.name}` : `Open ${workbook.name}`}
      </button>
    </div>
  );
}

/** Rows whose plan the refreshed mirror changed: a number taken meanwhile, a target modified or deleted. */
function ChangedSincePlan({ changes }: { changes: PushChange[] }) {
  return (
    <table className="sync-changed" aria-label="Changed since the last plan">
      <caption>Changed since the last plan</caption>
      <thead>
        <tr>
          <th scope="col">Sheet</th>
          <th scope="col">Row</th>
          <th scope="col">Plan</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <tr key={`${change.sheet}:${change.row_id}`}>
            <td>{change.sheet}</td>
            <td>{change.row}</td>
            <td>
              {change.was} -&gt; {change.now}
            </td>
            <td>{change.message ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
