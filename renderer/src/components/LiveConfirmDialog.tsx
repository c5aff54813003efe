import { useSlice, useStores } from '../store/stores';
import { workspaceColour } from '../store/workspace-store';
import { useLiveWorkspace } from './live-workspace';

/**
 * The client's question before a risky call in a live workspace that no view confirmed itself
 * (tags, bulk loads): the app's own dialog, on the deployment's colour, never the browser's.
 */
export function LiveConfirmDialog() {
  const { confirm } = useStores();
  const question = useSlice('confirm', (s) => s.question);
  const options = useSlice('confirm', (s) => s.options);
  const live = useLiveWorkspace();
  if (question === undefined) return null;
  const [ask, ...rest] = question.split('\n\n');
  return (
    <div className="live-confirm-backdrop">
      <div
        className="live-confirm"
        role="alertdialog"
        aria-modal="true"
        aria-label={options?.label ?? 'Confirm a live change'}
        style={{ borderTopColor: live ? workspaceColour(live.name) : undefined }}
      >
        <p>
          <strong>{ask}</strong>
        </p>
        {rest.map((line, at) => (
          <p key={at} className="confirm-detail">
            {line}
          </p>
        ))}
        <div className="toolbar">
          <button type="button" className="danger" autoFocus onClick={() => confirm.getState().answer(true)}>
            {options?.action ?? 'Go on'}
          </button>
          <button type="button" onClick={() => confirm.getState().answer(false)}>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
