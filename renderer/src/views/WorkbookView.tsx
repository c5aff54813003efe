import {
  DataEditor,
  GridCellKind,
  type GridCell,
  type GridColumn,
  type GridSelection,
  type Item,
  type Theme,
} from '@glideapps/glide-data-grid';
import '@glideapps/glide-data-grid/dist/index.css';
import { useCallback, useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import type { WorkbookCell, WorkbookIssue, WorkbookSheet } from '../../../main/service/contract/workbook-api';
import { saveFile } from '../api/downloads';
import { FaultNotice } from '../components/FaultNotice';
import { Loading } from '../components/States';
import { useSlice, useStores } from '../store/stores';
import { stateText } from './WorkbooksView';
import { useDarkScheme } from './workbooks/use-dark-scheme';
import './workbooks/workbooks.css';

/**
 * A staged workbook in a spreadsheet grid (glide-data-grid: canvas, a million rows): its sheets
 * as tabs in load order, each column titled as its header, cells coloured by their issues, the
 * issues of the chosen cell read out below the grid. Typing into a cell edits the workbook (one
 * revision); undo and redo step through its revisions (Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y).
 */
const ERROR_TINT = 'rgba(220, 38, 38, 0.28)';
const WARNING_TINT = 'rgba(245, 158, 11, 0.30)';

const plural = (count: number, word: string): string => `${count.toLocaleString()} ${word}${count === 1 ? '' : 's'}`;

/** The cell's text as the grid shows and edits it. */
export function cellText(cell: WorkbookCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'object') {
    if ('number' in cell) return String(cell.number);
    if ('date' in cell) return cell.date.slice(0, 10);
    if ('error' in cell) return cell.error;
    return '';
  }
  return String(cell);
}

function columnsOf(sheet: WorkbookSheet | undefined): GridColumn[] {
  return (sheet?.columns ?? []).map((column) => ({
    id: String(column.id),
    title: `${column.title || column.name || column.letter}${column.required ? ' *' : ''}`,
    width: Math.min(260, Math.max(90, (column.title || column.name).length * 9 + 24)),
  }));
}

const DARK: Partial<Theme> = {
  bgCell: '#171d24',
  bgCellMedium: '#1b222a',
  bgHeader: '#1b222a',
  bgHeaderHasFocus: '#232c37',
  bgHeaderHovered: '#232c37',
  textDark: '#e3e8ee',
  textMedium: '#98a4b3',
  textLight: '#7d8896',
  textHeader: '#e3e8ee',
  borderColor: '#2c3540',
  horizontalBorderColor: '#222a33',
  accentColor: '#4c8dff',
  accentLight: 'rgba(76, 141, 255, 0.2)',
};

export function WorkbookView() {
  const { workbook, nav, client } = useStores();
  const id = useSlice('nav', (s) => s.place.workbookId);
  const info = useSlice('workbook', (s) => s.info);
  const sheetIndex = useSlice('workbook', (s) => s.sheet);
  const version = useSlice('workbook', (s) => s.version);
  const fault = useSlice('workbook', (s) => s.fault);
  const dark = useDarkScheme();
  const [selection, setSelection] = useState<GridSelection | undefined>();
  const chosen = selection?.current?.cell;

  useEffect(() => {
    if (id) void workbook.getState().open(id);
    const stop = client.transport.onEvent?.((event) => {
      const { id: open, info: shown } = workbook.getState();
      // Its own state changes, and each batch of its load (the rows' outcomes move the counts).
      if (event.type === 'workbook' && event.id === open) void workbook.getState().refresh();
      if (event.type === 'progress' && shown?.load?.transaction_id === event.transaction_id) void workbook.getState().refresh();
    });
    return () => {
      stop?.();
      workbook.getState().close();
    };
  }, [id, workbook, client]);

  const sheet = info?.sheets.find((candidate) => candidate.index === sheetIndex);
  const columns = useMemo(() => columnsOf(sheet), [sheet]);

  const issuesAt = useCallback(
    ([col, row]: Item): WorkbookIssue[] => {
      const found = workbook.getState().rowAt(row);
      const columnId = sheet?.columns[col]?.id;
      return found?.issues.filter((issue) => issue.column_id === columnId) ?? [];
    },
    [workbook, sheet],
  );

  const getCellContent = useCallback(
    ([col, row]: Item): GridCell => {
      const found = workbook.getState().rowAt(row);
      const column = sheet?.columns[col];
      if (!found || !column) return { kind: GridCellKind.Loading, allowOverlay: false };
      const text = cellText(found.cells[String(column.id)]);
      const issues = found.issues.filter((issue) => issue.column_id === column.id);
      const tint = issues.some((issue) => issue.severity === 'error') ? ERROR_TINT : issues.length > 0 ? WARNING_TINT : undefined;
      return {
        kind: GridCellKind.Text,
        data: text,
        displayData: text,
        allowOverlay: true,
        readonly: sheet?.skipped === true,
        themeOverride: tint ? { bgCell: tint } : undefined,
      };
    },
    // `version` is a dependency so that a new page or an edit hands the grid a new function: it repaints.
    [workbook, sheet, version],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (!(event.ctrlKey || event.metaKey)) return;
    const key = event.key.toLowerCase();
    if (key === 'z' && !event.shiftKey) void workbook.getState().step('undo');
    else if ((key === 'z' && event.shiftKey) || key === 'y') void workbook.getState().step('redo');
    else return;
    event.preventDefault();
  };

  if (!id) return null;
  if (!info) return fault ? <FaultNotice fault={fault} /> : <Loading what="the workbook" />;
  const chosenIssues = chosen ? issuesAt(chosen) : [];
  const chosenRow = chosen ? workbook.getState().rowAt(chosen[1]) : undefined;
  const chosenName = chosen && sheet ? `${sheet.columns[chosen[0]]?.letter ?? ''}${chosenRow?.row ?? ''}` : '';

  return (
    <section className="workbook-view" aria-labelledby="workbook-title" onKeyDown={onKeyDown}>
      <div className="workbook-head">
        <button type="button" onClick={() => nav.getState().go({ view: 'workbooks' })}>
          ‹ Workbooks
        </button>
        <h2 id="workbook-title" className="view-title">
          {info.name}
        </h2>
        <span className={`pill wb-${info.state}`} data-testid="workbook-state">
          {stateText(info)}
        </span>
        <span className="muted" data-testid="workbook-counts">
          {plural(info.counts.rows, 'row')}, {plural(info.counts.errors, 'error')}, {plural(info.counts.warnings, 'warning')}
        </span>
        <span className="sources-gap" />
        <WorkbookActions />
        <button type="button" disabled={!info.can_undo} onClick={() => void workbook.getState().step('undo')}>
          Undo
        </button>
        <button type="button" disabled={!info.can_redo} onClick={() => void workbook.getState().step('redo')}>
          Redo
        </button>
      </div>
      {fault && <FaultNotice fault={fault} />}
      <div className="sheet-tabs" role="tablist" aria-label="Sheets">
        {info.sheets.map((candidate) => (
          <button
            key={candidate.index}
            type="button"
            role="tab"
            aria-selected={candidate.index === sheetIndex}
            className={`sheet-tab${candidate.index === sheetIndex ? ' current' : ''}${candidate.skipped ? ' skipped' : ''}`}
            title={candidate.skipped ? 'A # sheet: kept and saved, never loaded' : (candidate.model_type ?? undefined)}
            onClick={() => workbook.getState().showSheet(candidate.index)}
          >
            {candidate.name}
            {candidate.errors > 0 && (
              <span className="sheet-error-count" aria-label={`${candidate.errors} errors`}>
                {' '}
                {candidate.errors}
              </span>
            )}
          </button>
        ))}
      </div>
      {sheet?.directive !== null && sheet?.directive !== undefined && (
        <p className="directive-banner" aria-label="Directive">
          {sheet.directive}
        </p>
      )}
      <div className="workbook-grid">
        <DataEditor
          key={`${sheetIndex}`}
          columns={columns}
          rows={sheet?.rows ?? 0}
          getCellContent={getCellContent}
          rowMarkers="number"
          theme={dark ? DARK : undefined}
          width="100%"
          height="100%"
          gridSelection={selection}
          onGridSelectionChange={setSelection}
          onCellEdited={([col, row], value) => {
            const found = workbook.getState().rowAt(row);
            const column = sheet?.columns[col];
            if (!found || !column || value.kind !== GridCellKind.Text) return;
            void workbook.getState().setCell(found.id, column.id, value.data === '' ? null : value.data);
          }}
        />
      </div>
      <div className="cell-issues" role="status" aria-live="polite" data-testid="cell-issues">
        {chosen && chosenIssues.length === 0 && <span className="muted">{chosenName}: no issue</span>}
        {chosenRow?.plan && (
          <span className="muted">
            {' '}
            Row {chosenRow.row} plan: {chosenRow.plan.action}
            {chosenRow.plan.changes.map((change) => ` ${change.field}: ${String(change.old ?? '')} -> ${String(change.new ?? '')}`)}
          </span>
        )}
        {chosenRow?.outcome && (
          <span className={`row-outcome ${chosenRow.outcome.status}`} data-testid="row-outcome">
            {' '}
            Row {chosenRow.row}: {chosenRow.outcome.status}
            {chosenRow.outcome.message && ` (${chosenRow.outcome.message})`}, transaction {chosenRow.outcome.transaction_id}
          </span>
        )}
        {chosenIssues.map((issue, at) => (
          <p key={at} className={`cell-issue ${issue.severity}`}>
            <strong>{chosenName}</strong> {issue.severity}: {issue.message}
          </p>
        ))}
      </div>
    </section>
  );
}

/** Plan, load and save: the workbook's way out of the grid. */
function WorkbookActions() {
  const { workbook } = useStores();
  const info = useSlice('workbook', (s) => s.info);
  if (!info) return null;
  const busy = info.state === 'staging' || info.state === 'validating' || info.state === 'planning' || info.state === 'loading';
  const failedRows = (info.load?.failed ?? 0) + (info.load?.conflicts ?? 0);
  const allLoaded = info.load !== null && info.load.loaded >= info.load.total;
  const save = async (withIssues: boolean): Promise<void> => {
    const file = await workbook.getState().save(withIssues);
    if (file) saveFile(file.bytes, file.fileName, file.type);
  };
  return (
    <span className="workbook-actions">
      {info.plan && (
        <span className="muted" data-testid="plan-totals">
          plan: {info.plan.totals.add} add, {info.plan.totals.modify} modify, {info.plan.totals.delete} delete, {info.plan.totals.unchanged}{' '}
          unchanged, {info.plan.totals.conflict} conflict, {info.plan.totals.error} error
          {info.plan.revision !== info.revision && ' (stale: plan again)'}
        </span>
      )}
      {info.load && (
        <progress aria-label="Load progress" max={info.load.total} value={info.load.loaded + info.load.failed + info.load.conflicts} />
      )}
      <button type="button" disabled={busy} onClick={() => void workbook.getState().plan()}>
        Plan
      </button>
      <button
        type="button"
        className="primary"
        disabled={busy || info.counts.errors > 0 || allLoaded}
        title={info.counts.errors > 0 ? 'Fix the errors first: a workbook with errors is not loaded' : undefined}
        onClick={() => void workbook.getState().load('all', false)}
      >
        Load
      </button>
      {failedRows > 0 && (
        <button type="button" disabled={busy} onClick={() => void workbook.getState().load('failed', true)}>
          Retry {failedRows} failed
        </button>
      )}
      <button type="button" onClick={() => void save(false)}>
        Save .xlsx
      </button>
      <button type="button" onClick={() => void save(true)}>
        Save with issues
      </button>
    </span>
  );
}
