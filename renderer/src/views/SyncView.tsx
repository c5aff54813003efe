import { useEffect, useMemo } from 'react';
import { useSlice, useStores } from '../store/stores';
import { workspaceColour } from '../store/workspace-store';
import { Empty } from '../components/States';
import { MirrorPanel } from './sync/MirrorPanel';
import { ProfileWorkbooks } from './sync/ProfileWorkbooks';
import { ReachNotice } from './sync/ReachNotice';
import { StageForProfile } from './sync/StageForProfile';
import './sync/sync.css';

/**
 * The Sync panel of a remote profile, opened from Settings (README: A day offline): the mirror
 * pulled before going offline, workbooks staged and checked against it, and their pushes once
 * back online. The profile is the place's; without one, the first profile the user may use.
 */
export function SyncView() {
  const { workspace, workbooks } = useStores();
  const asked = useSlice('nav', (s) => s.place.profile);
  const workspaces = useSlice('workspace', (s) => s.workspaces);
  // Derived here, not in the selector: a new array from a selector each render would loop (zustand 5).
  const profiles = useMemo(() => workspaces.filter((entry) => entry.live).map((entry) => entry.name), [workspaces]);
  const profile = asked ?? profiles[0];

  useEffect(() => {
    void workspace.getState().load();
    void workbooks.getState().load();
    return workbooks.getState().follow();
  }, [workspace, workbooks]);

  return (
    <section className="sync-view" aria-labelledby="sync-title">
      <SyncHeader profile={profile} profiles={profiles} />
      {profile === undefined ? (
        <Empty title="No remote deployment to sync">Add one in Settings, then pull its mirror here.</Empty>
      ) : (
        <ProfileSync key={profile} profile={profile} />
      )}
    </section>
  );
}

/** Back to Settings, the profile's name on its workspace colour, and a picker when there are several. */
function SyncHeader({ profile, profiles }: { profile: string | undefined; profiles: string[] }) {
  const { nav } = useStores();
  const choices = profile === undefined || profiles.includes(profile) ? profiles : [profile, ...profiles];
  return (
    <div className="sync-head">
      <button type="button" onClick={() => nav.getState().go({ view: 'settings' })}>
        ‹ Settings
      </button>
      <h1 id="sync-title" className="view-title">
        Sync{' '}
        {profile !== undefined && (
          <strong className="live-name" style={{ background: workspaceColour(profile) }}>
            {profile}
          </strong>
        )}
      </h1>
      {choices.length > 1 && (
        <label>
          Profile{' '}
          <select value={profile} onChange={(event) => nav.getState().go({ view: 'sync', profile: event.target.value })}>
            {choices.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}

/** One profile's mirror, a way to stage a workbook for it, and the workbooks waiting to be pushed. */
function ProfileSync({ profile }: { profile: string }) {
  const { sync } = useStores();
  useEffect(() => {
    void sync
      .getState()
      .open(profile)
      .then(() => sync.getState().checkReach());
    return sync.getState().follow();
  }, [sync, profile]);
  return (
    <>
      <ReachNotice profile={profile} />
      <MirrorPanel profile={profile} />
      <StageForProfile profile={profile} />
      <ProfileWorkbooks profile={profile} />
    </>
  );
}
