import { Fragment, useMemo } from 'react';
import { FaultNotice } from '../../components/FaultNotice';
import { Empty, Loading } from '../../components/States';
import { mirrorTime } from '../../store/mirror-time';
import { useSlice, useStores } from '../../store/stores';
import { workbooksFor, type PushOutcome } from '../../store/sync-store';
import type { WorkbookSummary } from '../../store/workbooks-store';
import { stateText } from '../WorkbooksView';
import { PushReport } from './PushReport';

const plural = (count: number, word: string): string => `${count.toLocaleString()} ${word}${count === 1 ? '' : 's'}`;

/** States in which the service is still working on a workbook: a push would find it changing. */
const WORKING = new Set<WorkbookSummary['state']>(['staging', 'validating', 'planning', 'loading']);

/** The workbooks staged for the profile, waiting to be pushed, each with its Push and the answer of its last push. */
export function ProfileWorkbooks({ profile }: { profile: string }) {
  const rows = useSlice('workbooks', (s) => s.rows);
  const listState = useSlice('workbooks', (s) => s.listState);
  const fault = useSlice('workbooks', (s) => s.fault);
  const mine = useMemo(() => workbooksFor(rows, profile), [rows, profile]);
  return (
    <section className="sync-workbooks" aria-label={`Workbooks for ${profile}`}>
      <h2>Workbooks waiting for {profile}</h2>
      {fault && <FaultNotice fault={fault} />}
      {listState === 'loading' && <Loading what="the workbooks" />}
      {listState === 'ready' && mine.length === 0 && (
        <Empty title={`No workbook staged for ${profile}`}>Open an .xlsx file above: it is checked against the mirror, offline.</Empty>
      )}
      {mine.length > 0 && (
        <table className="grid-table" aria-label={`Workbooks staged for ${profile}`}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">State</th>
              <th scope="col">Rows</th>
              <th scope="col">Checked</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {mine.map((row) => (
              <ProfileWorkbookRow key={row.id} row={row} profile={profile} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * The question before a push: it reaches a customer's system, so it names the deployment, its
 * address, and what the plan will do there (or that the push plans it first).
 */
export function pushQuestion(row: WorkbookSummary, profile: string, baseUrl: string | null | undefined): string {
  const where = baseUrl ? `${profile} (${baseUrl})` : profile;
  const totals = row.plan?.revision === row.revision ? row.plan.totals : undefined;
  const what = totals
    ? `The plan: ${plural(totals.add, 'add')}, ${plural(totals.modify, 'modify')}, ${plural(totals.delete, 'delete')}${totals.conflict > 0 ? `, ${plural(totals.conflict, 'conflict')} (not pushed)` : ''}${totals.error > 0 ? `, ${plural(totals.error, 'row')} in error (not pushed)` : ''}.`
    : `${plural(row.counts.rows, 'row')}, not planned since the last change: the push pulls ${profile}'s changes and plans them first.`;
  return `Push ${row.name} to ${where}?\n\n${what}\n\nThe rows are written on the customer's system; each row's outcome is reported here.`;
}

function ProfileWorkbookRow({ row, profile }: { row: WorkbookSummary; profile: string }) {
  const { sync, nav, confirm } = useStores();
  const baseUrl = useSlice('workspace', (s) => s.workspaces.find((entry) => entry.name === profile)?.base_url);
  const push = async (): Promise<void> => {
    if (await confirm.getState().ask(pushQuestion(row, profile, baseUrl), { label: `Push to ${profile}`, action: 'Push' }))
      await sync.getState().push(row.id);
  };
  const outcome = useSlice('sync', (s) => (s.profile === profile ? s.pushes[row.id] : undefined));
  // One pull or push of a profile at a time on the service (a push pulls first): the others wait.
  const profileBusy = useSlice('sync', (s) => s.pulling || Object.values(s.pushes).some((push) => push.kind === 'running'));
  const progress = useSlice('sync', (s) => (outcome?.kind === 'running' && s.progress?.action === 'push' ? s.progress.text : undefined));
  const allLoaded = row.load !== null && row.load.total > 0 && row.load.loaded >= row.load.total;
  const pushTitle = WORKING.has(row.state)
    ? 'The workbook is still being worked on: wait for it'
    : allLoaded
      ? `Every row is on ${profile}`
      : profileBusy
        ? `A pull or push of ${profile} is running: wait for it to end`
        : undefined;
  const offline = useSlice('sync', (s) => s.reach === 'offline');
  return (
    <Fragment>
      <tr data-workbook={row.id}>
        <td>
          <button
            type="button"
            className="link-like"
            disabled={row.state === 'staging'}
            onClick={() => nav.getState().go({ view: 'workbook', workbookId: row.id })}
          >
            {row.name}
          </button>
          <div className="muted">at {row.hierarchy}</div>
        </td>
        <td>
          <span className={`pill wb-${row.state}`} title={row.problem ?? undefined}>
            {stateText(row)}
          </span>
        </td>
        <td>
          {plural(row.counts.rows, 'row')}, {plural(row.counts.errors, 'error')}, {plural(row.counts.warnings, 'warning')}
          {row.plan && row.plan.totals.conflict > 0 && <div className="muted">plan: {plural(row.plan.totals.conflict, 'conflict')}</div>}
        </td>
        <td>
          {row.checked_against ? `checked against the mirror of ${mirrorTime(row.checked_against)}` : 'no mirror to check against: pull it'}
        </td>
        <td>
          <button
            type="button"
            className="primary"
            aria-label={`Push ${row.name}`}
            disabled={pushTitle !== undefined}
            title={pushTitle ?? (offline ? `Needs the network: ${profile} cannot be reached now` : undefined)}
            onClick={() => void push()}
          >
            {outcome?.kind === 'running' ? 'Pushing…' : 'Push'}
          </button>
        </td>
      </tr>
      {outcome?.kind === 'running' && (
        <tr className="sync-push-row">
          <td colSpan={5} className="muted" role="status" data-testid="push-progress">
            Pushing {row.name}
            {progress ? `: ${progress}` : '…'}
          </td>
        </tr>
      )}
      {outcome && outcome.kind !== 'running' && (
        <tr className="sync-push-row">
          <td colSpan={5}>
            <PushResult outcome={outcome} row={row} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

function PushResult({ outcome, row }: { outcome: Exclude<PushOutcome, { kind: 'running' }>; row: WorkbookSummary }) {
  const { sync } = useStores();
  if (outcome.kind === 'failed') return <FaultNotice fault={outcome.fault} onRetry={() => void sync.getState().push(row.id)} />;
  return <PushReport answer={outcome.answer} checkedAgainst={outcome.checkedAgainst} workbook={row} />;
}
