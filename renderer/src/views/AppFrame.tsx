import { useEffect } from 'react';
import { Breadcrumb } from '../components/Breadcrumb';
import { LiveConfirmDialog } from '../components/LiveConfirmDialog';
import { ShortcutsSheet } from './ShortcutsSheet';
import { StatusLine } from '../components/StatusLine';
import { TopBar } from '../components/TopBar';
import { TreePanel } from '../components/TreePanel';
import { useSlice, useStores } from '../store/stores';
import { useReadyMarker } from './use-ready-marker';
import { ViewSwitch } from './ViewSwitch';
import { useWindowFileDrop } from './workbooks/use-window-file-drop';

/** The signed-in window: top bar, the tree on the left, the current view, the status line. */
export function AppFrame() {
  const { hierarchy, nav } = useStores();
  const user = useSlice('session', (s) => s.user);
  const rootPkid = useSlice('hierarchy', (s) => s.rootPkid);
  const rootFault = useSlice('hierarchy', (s) => s.rootFault);
  useReadyMarker(Boolean(rootPkid || rootFault));
  useWindowFileDrop();

  const { workspace } = useStores();
  const current = useSlice('workspace', (s) => s.current);
  const switching = useSlice('workspace', (s) => s.switching);
  const remoteHome = useSlice('workspace', (s) => s.remoteHome);

  useEffect(() => {
    if (user) void workspace.getState().load();
  }, [user, workspace]);

  // The tree starts at the signed-in user's node; in a live workspace where the remote's whoami or the profile's home hierarchy puts it.
  useEffect(() => {
    if (!user || switching) return;
    if (current === 'Local') void hierarchy.getState().loadRoot(user.hierarchy_pkid);
    else if (remoteHome) void hierarchy.getState().loadRoot(remoteHome.pkid);
  }, [user, hierarchy, current, switching, remoteHome]);

  // Choosing a node in the tree shows its resources, whatever view was open.
  useEffect(
    () =>
      hierarchy.subscribe((state, previous) => {
        if (state.selected === previous.selected || !previous.selected) return;
        const place = nav.getState().place;
        if (place.view !== 'resources') nav.getState().go({ view: 'resources', modelType: place.modelType });
      }),
    [hierarchy, nav],
  );

  return (
    <div className="frame">
      <TopBar />
      <TreePanel />
      <main className="content">
        <Breadcrumb />
        <ViewSwitch />
      </main>
      <StatusLine />
      <LiveConfirmDialog />
      <ShortcutsSheet />
    </div>
  );
}
