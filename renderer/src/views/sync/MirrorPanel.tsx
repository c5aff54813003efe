import type { SyncStatus } from '../../../../main/service/contract/workstation-api';
import { FaultNotice } from '../../components/FaultNotice';
import { Loading } from '../../components/States';
import { mirrorText } from '../../store/mirror-time';
import { useSlice, useStores } from '../../store/stores';
import { useEffect, useState } from 'react';
import { MassDeleteQuestion } from './MassDeleteQuestion';

/** The clock the mirror's age is told against, a minute at a time: "12 min ago" moves on while the panel is open. */
function useMinute(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The profile's mirror: when it was last pulled, what it holds, and "Pull now", with what a
 * running pull is reading (its events: each model and every 2,000 instances).
 */
export function MirrorPanel({ profile }: { profile: string }) {
  const { sync } = useStores();
  // Until the store has opened this profile, what it holds is another's: show nothing of it.
  const shown = useSlice('sync', (s) => s.profile === profile);
  const status = useSlice('sync', (s) => s.status);
  const statusState = useSlice('sync', (s) => s.statusState);
  const pulling = useSlice('sync', (s) => s.pulling);
  const pushing = useSlice('sync', (s) => Object.values(s.pushes).some((outcome) => outcome.kind === 'running'));
  const fault = useSlice('sync', (s) => s.fault);
  const massDelete = useSlice('sync', (s) => s.massDelete);
  const now = useMinute();
  const offline = useSlice('sync', (s) => s.reach === 'offline');
  const progress = useSlice('sync', (s) => (s.progress?.action === 'pull' ? s.progress.text : undefined));
  const pull = (): void => void sync.getState().pull();
  return (
    <section className="sync-mirror" aria-label={`Mirror of ${profile}`}>
      <div className="sync-mirror-head">
        <h2>Mirror</h2>
        {shown && status && (
          <span className="sync-pulled" data-testid="mirror-pulled">
            {mirrorText(status.pulled_at, now)}
          </span>
        )}
        <span className="sources-gap" />
        {/* The service runs one pull or push of a profile at a time: a push pulls first. */}
        <button
          type="button"
          className="primary"
          disabled={!shown || pulling || pushing}
          title={
            pushing
              ? 'A push is running: it pulls the changes itself'
              : offline
                ? `Needs the network: ${profile} cannot be reached now`
                : undefined
          }
          onClick={pull}
        >
          {pulling ? 'Pulling…' : 'Pull now'}
        </button>
      </div>
      {pulling && (
        <p className="muted" role="status" data-testid="pull-progress">
          Pulling {profile} as the profile's user{progress ? `: ${progress}` : '…'}
        </p>
      )}
      {shown && fault && <FaultNotice fault={fault} onRetry={pull} />}
      {shown && massDelete && (
        <MassDeleteQuestion
          profile={profile}
          question={massDelete}
          onConfirm={() => void sync.getState().pull({ allowMassDelete: true })}
          onKeep={() => sync.getState().keepMirror()}
        />
      )}
      {(!shown || statusState === 'loading') && !status && <Loading what={`the mirror of ${profile}`} />}
      {shown && status && <MirrorContents status={status} />}
    </section>
  );
}

/** Where the mirror was pulled from and how many instances of each model it holds. */
function MirrorContents({ status }: { status: SyncStatus }) {
  if (status.pulled_at === null) {
    return <p className="muted">Pull it while the remote can be reached: workbooks for {status.profile} are checked against it offline.</p>;
  }
  const counts = Object.entries(status.counts).sort(([a], [b]) => a.localeCompare(b));
  const total = counts.reduce((sum, [, count]) => sum + count, 0);
  return (
    <>
      <p className="muted">
        {status.mode === 'changes' ? 'Last pull read the changes' : 'Last pull read everything'}
        {status.home_hierarchy && ` from ${status.home_hierarchy}`}.
      </p>
      <table className="sync-counts" aria-label="Mirror counts">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Instances</th>
          </tr>
        </thead>
        <tbody>
          {counts.map(([modelType, count]) => (
            <tr key={modelType}>
              <td>{modelType}</td>
              <td>{count.toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td>{total.toLocaleString()}</td>
          </tr>
        </tfoot>
      </table>
    </>
  );
}
