import { mirrorTime } from '../../store/mirror-time';
import { useStores } from '../../store/stores';
import type { WorkbookSummary } from '../../store/workbooks-store';

type ProfilePlace = Pick<WorkbookSummary, 'profile' | 'checked_against'>;

/** "for AcmeProd, checked against the mirror of 09:40": where a profile's workbook goes and what it was checked against. */
export function profileText({ profile, checked_against }: ProfilePlace): string {
  if (profile === null) return '';
  const checked = checked_against ? `checked against the mirror of ${mirrorTime(checked_against)}` : 'its mirror is gone: pull it again';
  return `for ${profile}, ${checked}`;
}

/** The profile of a workbook staged for a remote; nothing for a Local one. */
export function WorkbookProfileNote({ workbook }: { workbook: ProfilePlace }) {
  if (workbook.profile === null) return null;
  return (
    <div className="workbook-profile muted" data-testid="workbook-profile">
      {profileText(workbook)}
    </div>
  );
}

/**
 * In place of the Local Load: the service refuses to load a profile's workbook here
 * (`workbook-remote`), its rows go to the remote by a push, from the profile's Sync panel.
 */
export function PushFromSync({ profile, name }: { profile: string; name: string }) {
  const { nav } = useStores();
  return (
    <span className="workbook-profile" data-testid="push-from-sync">
      <span className="muted">Not loaded here: pushed to {profile} from the Sync panel.</span>{' '}
      <button type="button" aria-label={`Push ${name} from the Sync panel`} onClick={() => nav.getState().go({ view: 'sync', profile })}>
        Sync panel
      </button>
    </span>
  );
}
