import { saveFile } from '../../api/downloads';
import type { WorkbookSheet } from '../../../../main/service/contract/workbook-api';
import { useSlice, useStores } from '../../store/stores';
import { NO_FILTER, isFiltered, type RowFilter } from '../../store/workbook-filter';
import type { Direction } from './error-navigation';

/**
 * The workbook's issues at a glance, beside the grid: counts per code and per column of the
 * shown sheet (each a button that lists only those rows), "only rows with errors", and next /
 * previous error. The counts are the service's, read again with each revision (an edit's
 * answer moves it), so they follow what is typed.
 */
const sameFilter = (a: RowFilter, b: RowFilter): boolean => a.only === b.only && a.code === b.code && a.column === b.column;

export function IssuePanel({
  sheet,
  onNavigate,
  onHistory,
}: {
  sheet: WorkbookSheet | undefined;
  onNavigate: (direction: Direction) => void;
  /** Shows the revisions (what Undo will undo) in the panel's place. */
  onHistory: () => void;
}) {
  const { workbook } = useStores();
  /** The issues as a report to send (every issue: sheet, row, column, severity, code, message). */
  const download = async (format: 'xlsx' | 'csv'): Promise<void> => {
    const file = await workbook.getState().issuesFile(format);
    if (file) saveFile(file.bytes, file.fileName, file.type);
  };
  const counts = useSlice('workbookIssues', (s) => s.counts);
  const filter = useSlice('workbook', (s) => s.filter);
  const filteredRows = useSlice('workbook', (s) => s.filteredRows);
  const choose = (next: RowFilter): void => workbook.getState().setFilter(sameFilter(next, filter) ? NO_FILTER : next);
  const columns = (counts?.by_column ?? []).filter((entry) => entry.sheet === sheet?.index && entry.errors + entry.warnings > 0);
  const titleOf = (columnId: number | null): string => {
    const column = sheet?.columns.find((candidate) => candidate.id === columnId);
    return column ? `${column.letter} ${column.title || column.name}` : 'whole row';
  };
  return (
    <aside className="issue-panel" aria-labelledby="issue-panel-title" data-testid="issue-panel">
      <h2 id="issue-panel-title" className="side-panel-head">
        <span>
          Issues <span className="muted">{counts ? counts.total.toLocaleString() : '…'}</span>
        </span>
        <button type="button" className="side-switch" onClick={onHistory} title="What Undo will undo">
          History
        </button>
      </h2>
      <label className="issue-only-errors">
        <input
          type="checkbox"
          checked={filter.only === 'errors' && filter.code === undefined && filter.column === undefined}
          onChange={(event) => workbook.getState().setFilter(event.target.checked ? { only: 'errors' } : NO_FILTER)}
        />{' '}
        Only rows with errors
      </label>
      {isFiltered(filter) && (
        <p className="muted" data-testid="filter-status">
          {filteredRows === undefined ? 'Listing…' : `${filteredRows.toLocaleString()} ${filteredRows === 1 ? 'row' : 'rows'} listed`}{' '}
          <button type="button" className="link" onClick={() => workbook.getState().setFilter(NO_FILTER)}>
            Show all rows
          </button>
        </p>
      )}
      <div className="issue-steps">
        <button type="button" onClick={() => onNavigate('previous')} title="Shift+F8">
          ‹ Previous error
        </button>
        <button type="button" onClick={() => onNavigate('next')} title="F8">
          Next error ›
        </button>
      </div>
      <h3>By code</h3>
      <ul className="issue-counts" aria-label="Issues by code">
        {(counts?.by_code ?? []).map((entry) => (
          <li key={`${entry.code}-${entry.severity}`}>
            <button
              type="button"
              className={`issue-count ${entry.severity}`}
              aria-pressed={filter.code === entry.code}
              onClick={() => choose({ code: entry.code })}
            >
              <span className="issue-code">{entry.code}</span>
              <span className="issue-number">{entry.count.toLocaleString()}</span>
            </button>
          </li>
        ))}
        {counts && counts.by_code.length === 0 && <li className="muted">No issue</li>}
      </ul>
      <h3>By column</h3>
      <ul className="issue-counts" aria-label="Issues by column">
        {columns.map((entry) => (
          <li key={String(entry.column_id)}>
            <button
              type="button"
              className={`issue-count ${entry.errors > 0 ? 'error' : 'warning'}`}
              aria-pressed={entry.column_id !== null && filter.column === entry.column_id}
              disabled={entry.column_id === null}
              onClick={() => entry.column_id !== null && choose({ column: entry.column_id })}
            >
              <span className="issue-code">{titleOf(entry.column_id)}</span>
              <span className="issue-number">
                {entry.errors > 0 && `${entry.errors.toLocaleString()} E`}
                {entry.errors > 0 && entry.warnings > 0 && ' '}
                {entry.warnings > 0 && `${entry.warnings.toLocaleString()} W`}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {counts && counts.total > 0 && (
        <p className="issue-downloads">
          Download issues{' '}
          <button type="button" onClick={() => void download('xlsx')}>
            .xlsx
          </button>{' '}
          <button type="button" onClick={() => void download('csv')}>
            CSV
          </button>
        </p>
      )}
      <p className="muted issue-keys">F8 next error, Shift+F8 previous, Ctrl+. applies a suggested fix.</p>
    </aside>
  );
}
