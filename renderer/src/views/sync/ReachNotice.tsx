import { mirrorTime } from '../../store/mirror-time';
import { useSlice, useStores } from '../../store/stores';

/**
 * Whether the profile's remote can be reached now, and offline, which actions of the panel need
 * the network (a pull, a push) and which do not (opening a file, checking and planning it against
 * the mirror, editing it): a field engineer on site sees what can be done before trying it.
 */
export function ReachNotice({ profile }: { profile: string }) {
  const { sync } = useStores();
  const reach = useSlice('sync', (s) => s.reach);
  const message = useSlice('sync', (s) => s.reachMessage);
  const pulledAt = useSlice('sync', (s) => s.status?.pulled_at ?? null);
  const check = (
    <button type="button" disabled={reach === 'checking'} onClick={() => void sync.getState().checkReach()}>
      Check again
    </button>
  );
  if (reach === 'checking') {
    return (
      <p className="muted sync-reach" role="status" data-testid="sync-reach">
        Checking whether {profile} can be reached…
      </p>
    );
  }
  if (reach === 'online') {
    return (
      <p className="muted sync-reach" role="status" data-testid="sync-reach">
        Online: {profile} answers. {check}
      </p>
    );
  }
  if (reach === 'offline') {
    return (
      <div className="sync-reach sync-offline" role="status" data-testid="sync-reach">
        <strong>Offline</strong>: {message ?? `${profile} cannot be reached now.`}{' '}
        <span>
          <strong>Pull now</strong> and <strong>Push</strong> need the network. Opening a file, checking and planning it
          {pulledAt ? ` against the mirror of ${mirrorTime(pulledAt)}` : ' against the mirror'}, and editing it work offline.
        </span>{' '}
        {check}
      </div>
    );
  }
  return (
    <p className="muted sync-reach" role="status" data-testid="sync-reach">
      Not known whether {profile} can be reached{message ? ` (${message})` : ''}. {check}
    </p>
  );
}
