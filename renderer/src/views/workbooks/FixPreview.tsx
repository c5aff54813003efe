import { useState } from 'react';
import type { WorkbookCell, WorkbookRowPage } from '../../../../main/service/contract/workbook-api';
import { useSlice, useStores } from '../../store/stores';

/** Rows a preview lists; past them it says how many more change. */
const SHOWN = 50;

interface Change {
  row: number;
  from: WorkbookCell | undefined;
  to: WorkbookCell;
}

const shown = (value: WorkbookCell | undefined): string => (value === undefined || value === null ? '(empty)' : String(value));

/**
 * "Apply to all n like it", shown before it is done: its button lists each row's value now and
 * the value its suggested fix gives (the service's suggestion of that very cell, read with the
 * rows filter of the code and column); only "Apply these n changes" then applies them (Cancel closes the list, nothing changed). A fix may
 * add a + the inventory holds, or keep digits whose + cannot be known: the engineer sees which.
 */
export function FixPreview({ code, columnId, count, onApply }: { code: string; columnId: number; count: number; onApply: () => void }) {
  const { client } = useStores();
  const id = useSlice('workbook', (s) => s.id);
  const sheet = useSlice('workbook', (s) => s.sheet);
  const revision = useSlice('workbook', (s) => s.info?.revision);
  // A preview read at another revision no longer says what applying does: it is read again.
  const [read, setChanges] = useState<{ list: Change[]; total: number; revision: number | undefined } | null>(null);
  const changes = read?.revision === revision ? read : null;
  const [failed, setFailed] = useState<string | null>(null);

  async function show(): Promise<void> {
    if (id === undefined) return;
    try {
      const page = await client.get<WorkbookRowPage>(`/workstation/workbooks/${encodeURIComponent(id)}/sheets/${sheet}/rows/`, {
        code,
        column: columnId,
        limit: SHOWN,
      });
      const list: Change[] = [];
      for (const row of page.rows) {
        const fix = row.issues.find((issue) => issue.code === code && issue.column_id === columnId && issue.suggestion !== null);
        if (fix?.suggestion) list.push({ row: row.row, from: row.cells[String(columnId)], to: fix.suggestion.value });
      }
      setChanges({ list, total: page.total, revision });
    } catch (error) {
      setFailed(error instanceof Error ? error.message : String(error));
    }
  }

  if (failed !== null) return <p className="cell-fix-preview error">{failed}</p>;
  if (changes === null) {
    return (
      <button type="button" onClick={() => void show()}>
        Apply to all {count.toLocaleString()} like it
      </button>
    );
  }
  return (
    <div className="cell-fix-preview" data-testid="fix-preview">
      <p>Applying to all changes:</p>
      <ul>
        {changes.list.map((change) => (
          <li key={change.row}>
            Row {change.row}: {shown(change.from)} -&gt; {shown(change.to)}
          </li>
        ))}
      </ul>
      {changes.total > changes.list.length && <p>and {(changes.total - changes.list.length).toLocaleString()} more rows.</p>}
      <button type="button" className="primary" onClick={onApply}>
        Apply these {changes.total.toLocaleString()} changes
      </button>{' '}
      <button type="button" onClick={() => setChanges(null)}>
        Cancel
      </button>
    </div>
  );
}
