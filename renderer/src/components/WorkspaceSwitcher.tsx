import { useSlice, useStores } from '../store/stores';
import { workspaceColour } from '../store/workspace-store';

/**
 * Where the app acts, always on screen: the workspace's name on its own colour, and the choice
 * of `Local` or a remote deployment. A live workspace also names its address.
 */
export function WorkspaceSwitcher() {
  const { workspace } = useStores();
  const workspaces = useSlice('workspace', (s) => s.workspaces);
  const current = useSlice('workspace', (s) => s.current);
  const switching = useSlice('workspace', (s) => s.switching);
  const entry = workspaces.find((candidate) => candidate.name === current);
  const colour = workspaceColour(current);
  return (
    <span
      className="workspace"
      data-testid="workspace"
      data-workspace={current}
      data-live={entry?.live ? 'true' : 'false'}
      style={{ background: colour }}
      title={entry?.live ? `Live: every change goes to ${entry.base_url ?? current}` : 'The local store on this computer'}
    >
      <label>
        <span className="visually-hidden">Workspace</span>
        <select
          aria-label="Workspace"
          value={current}
          disabled={switching}
          onChange={(event) => void workspace.getState().switchTo(event.target.value)}
        >
          {workspaces.map((candidate) => (
            <option key={candidate.name} value={candidate.name}>
              {candidate.live ? `${candidate.name} (live)` : candidate.name}
            </option>
          ))}
        </select>
      </label>
      {entry?.live && <span className="workspace-address">{entry.base_url}</span>}
    </span>
  );
}
