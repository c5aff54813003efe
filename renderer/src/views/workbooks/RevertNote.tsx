import { useSlice, useStores } from '../../store/stores';
import { shortId } from '../transactions/tx-format';

/** On a revert plan (README: Reverting a load): which load it reverts, a link to that load's transaction. */
export function RevertNote() {
  const { nav } = useStores();
  const reverts = useSlice('workbook', (s) => s.info?.reverts);
  if (!reverts) return null;
  return (
    <span className="muted" data-testid="revert-note">
      Revert plan of{' '}
      <button type="button" className="link" onClick={() => nav.getState().go({ view: 'transaction', transactionId: reverts })}>
        load {shortId(reverts)}
      </button>
    </span>
  );
}
