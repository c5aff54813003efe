import { useEffect, useState } from 'react';
import type { WorkbookHistoryEntry } from '../../../../main/service/contract/workbook-api';
import { asFault, type ApiFault } from '../../api/fault';
import { FaultNotice } from '../../components/FaultNotice';
import { useSlice, useStores } from '../../store/stores';

/**
 * What Undo will undo (issue 32, point 7): the workbook's revisions, newest first, each with its
 * label, who made it and when, undone ones marked; "Back to here" undoes (or redoes) every step
 * between the workbook as it stands and that point, one revision at a time, as Ctrl+Z would.
 */
interface HistoryAnswer {
  revision: number;
  history: WorkbookHistoryEntry[];
}

/** The undos (negative) or redos (positive) from where the workbook stands to just after `seq` (0: as opened). */
export function stepsTo(history: readonly WorkbookHistoryEntry[], seq: number): number {
  const undo = history.filter((entry) => !entry.undone && entry.seq > seq).length;
  const redo = history.filter((entry) => entry.undone && entry.seq <= seq).length;
  return redo - undo;
}

export function HistoryPanel() {
  const { workbook, client } = useStores();
  const id = useSlice('workbook', (s) => s.id);
  const revision = useSlice('workbook', (s) => s.info?.revision);
  const [answer, setAnswer] = useState<HistoryAnswer | null>(null);
  const [fault, setFault] = useState<ApiFault | null>(null);
  const [moving, setMoving] = useState(false);

  useEffect(() => {
    if (!id) return undefined;
    let live = true;
    client
      .get<HistoryAnswer>(`/workstation/workbooks/${encodeURIComponent(id)}/history/`)
      .then((next) => live && (setAnswer(next), setFault(null)))
      .catch((error: unknown) => live && setFault(asFault(error)));
    return () => {
      live = false;
    };
  }, [client, id, revision]);

  const backTo = async (seq: number): Promise<void> => {
    if (!answer) return;
    const steps = stepsTo(answer.history, seq);
    setMoving(true);
    try {
      for (let done = 0; done < Math.abs(steps); done += 1) await workbook.getState().step(steps < 0 ? 'undo' : 'redo');
    } finally {
      setMoving(false);
    }
  };

  const entries = [...(answer?.history ?? [])].reverse();
  const current = answer?.history.filter((entry) => !entry.undone).at(-1)?.seq ?? 0;
  return (
    <div className="history-panel" data-testid="history-panel">
      {fault && <FaultNotice fault={fault} />}
      {answer && answer.history.length === 0 && <p className="muted">No edit yet: the workbook is as it was opened.</p>}
      <ol className="history-list" aria-label="Revisions, newest first">
        {entries.map((entry) => (
          <li key={entry.seq} className={entry.undone ? 'undone' : entry.seq === current ? 'current' : undefined}>
            <span className="history-summary">{entry.summary}</span>
            <span className="muted">
              {' '}
              {entry.username}, {entry.at.replace('T', ' ').slice(11, 19)}
              {entry.undone ? ', undone' : entry.seq === current ? ', now' : ''}
            </span>{' '}
            {entry.seq !== current && (
              <button type="button" disabled={moving} onClick={() => void backTo(entry.seq)} aria-label={`Back to after: ${entry.summary}`}>
                Back to here
              </button>
            )}
          </li>
        ))}
        {answer && answer.history.length > 0 && (
          <li className={current === 0 ? 'current' : undefined}>
            <span className="history-summary">As opened</span>{' '}
            {current !== 0 && (
              <button type="button" disabled={moving} onClick={() => void backTo(0)} aria-label="Back to the workbook as opened">
                Back to here
              </button>
            )}
          </li>
        )}
      </ol>
    </div>
  );
}
