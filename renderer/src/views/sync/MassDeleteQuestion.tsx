import type { ApiFault } from '../../api/fault';

/**
 * The question a pull asks before it removes more than a tenth of a model's instances from the
 * mirror (README: the mass-delete guard): a remote answering a broken scope must not empty an
 * engineer's mirror unseen. The mirror is kept as it was until the user says to go on.
 */
export function MassDeleteQuestion({
  profile,
  question,
  onConfirm,
  onKeep,
}: {
  profile: string;
  question: ApiFault;
  onConfirm: () => void;
  onKeep: () => void;
}) {
  return (
    <div className="sync-mass-delete" role="alertdialog" aria-label="Remove from the mirror?" data-testid="mass-delete">
      <strong>This pull would remove more than a tenth of what the mirror of {profile} holds of:</strong>
      <ul>
        {question.details.map((detail) => (
          <li key={detail.field}>
            <code>{detail.field}</code>: {detail.message}
          </li>
        ))}
      </ul>
      <p>
        The mirror is kept as it was. If {profile} really lost them, pull again and remove them; if not, check the profile's user and its
        node on the remote first.
      </p>
      <div className="sync-mass-delete-actions">
        <button type="button" className="danger" onClick={onConfirm}>
          Pull and remove them
        </button>
        <button type="button" onClick={onKeep}>
          Keep the mirror
        </button>
      </div>
    </div>
  );
}
