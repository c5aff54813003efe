import type { LiveWorkspace } from '../api/api-client';
import { useSlice } from '../store/stores';
import { workspaceColour } from '../store/workspace-store';

/** The live deployment the window works on, or undefined in the Local workspace. */
export function useLiveWorkspace(): LiveWorkspace | undefined {
  const current = useSlice('workspace', (s) => s.current);
  const entry = useSlice('workspace', (s) => s.workspaces.find((candidate) => candidate.name === s.current));
  return current !== 'Local' && entry?.live ? { name: entry.name, baseUrl: entry.base_url ?? '' } : undefined;
}

/**
 * The line a confirmation of a live change carries: the deployment's name on its colour and its
 * address, so the user confirms knowing where the change goes (issue 14, point 4).
 */
export function LiveTarget({ live }: { live: LiveWorkspace }) {
  return (
    <span className="live-target" data-testid="live-target" data-live={live.name}>
      This changes the live deployment{' '}
      <strong className="live-name" style={{ background: workspaceColour(live.name) }}>
        {live.name}
      </strong>{' '}
      ({live.baseUrl}), not the local store.
    </span>
  );
}
