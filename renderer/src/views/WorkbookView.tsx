import { DataEditor, GridCellKind, type GridCell, type GridColumn, type GridSelection, type Item } from '@glideapps/glide-data-grid';
import '@glideapps/glide-data-grid/dist/index.css';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { WorkbookInfo, WorkbookIssue, WorkbookRow, WorkbookSheet } from '../../../main/service/contract/workbook-api';
import { saveFile } from '../api/downloads';
import { FaultNotice } from '../components/FaultNotice';
import { SheetTabs } from '../components/SheetTabs';
import { Loading } from '../components/States';
import { useSlice, useStores } from '../store/stores';
import { cellText } from '../store/workbook-cell-text';
import { stateText } from './WorkbooksView';
import { CellFix } from './workbooks/CellFix';
import { CellTooltip } from './workbooks/CellTooltip';
import { HistoryPanel } from './workbooks/HistoryPanel';
import { IssuePanel } from './workbooks/IssuePanel';
import { ChangedSinceLoad, LoadProgress } from './workbooks/LoadProgress';
import { PushFromSync, WorkbookProfileNote } from './workbooks/ProfileNote';
import { infoCell, infoColumns, infoKindsOf } from './workbooks/row-info-columns';
import { RowOutcomeLink } from './workbooks/RowOutcomeLink';
import { LoadedRowNote } from './workbooks/LoadedRowNote';
import { RevertNote } from './workbooks/RevertNote';
import { useIssueNavigation } from './workbooks/use-issue-navigation';
import { isFiltered } from '../store/workbook-filter';
import { gridCellFor } from './workbooks/choice-cell';
import { DirectiveBanner } from './workbooks/DirectiveBanner';
import { GridEditBar } from './workbooks/GridEditBar';
import { MappingStep } from './workbooks/MappingStep';
import { WorkbookNotOpen } from './workbooks/WorkbookNotOpen';
import { useDarkScheme } from './workbooks/use-dark-scheme';
import { DARK_GRID_THEME } from './viewer/grid-theme';
import { throttled } from './workbooks/throttle';
import { useGridEditing } from './workbooks/use-grid-editing';
import { GUTTER, gutterCell, gutterColumn, gutterSelection } from './workbooks/row-gutter';
import './workbooks/workbooks.css';

/**
 * A staged workbook in a spreadsheet grid (glide-data-grid: canvas, a million rows): its sheets
 * as tabs in load order, each column titled as its header, cells coloured by their issues, the
 * issues of the chosen cell read out below the grid. Typing into a cell edits the workbook (one
 * revision); undo and redo step through its revisions (Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y).
 */
const ERROR_TINT = 'rgba(220, 38, 38, 0.28)';
const WARNING_TINT = 'rgba(245, 158, 11, 0.30)';

/** How often a running load's counts and rows are read again (its bar moves with every batch). */
const PROGRESS_REFRESH_MS = 1000;

const plural = (count: number, word: string): string => `${count.toLocaleString()} ${word}${count === 1 ? '' : 's'}`;

export { cellText };

/** The largest Excel row number among the rows read: the gutter widens for it. */
function largestRowRead(pages: Map<number, WorkbookRow[]>): number {
  let largest = 0;
  for (const rows of pages.values()) largest = Math.max(largest, rows[rows.length - 1]?.row ?? 0);
  return largest;
}

function columnsOf(sheet: WorkbookSheet | undefined): GridColumn[] {
  return (sheet?.columns ?? []).map((column) => ({
    id: String(column.id),
    title: `${column.title || column.name || column.letter}${column.required ? ' *' : ''}`,
    width: Math.min(260, Math.max(90, (column.title || column.name).length * 9 + 24)),
  }));
}

/** How often a workbook being read is asked for its state, besides its events. */
const READING_RECHECK_MS = 1000;

/** Rows a short sheet (a new template's) shows, filled with empty ones that take typing and paste. */
const EMPTY_ROWS = 20;
const BLANK_CELL: GridCell = { kind: GridCellKind.Text, data: '', displayData: '', allowOverlay: false, readonly: true };

/**
 * Empty rows shown after the last of a template's short sheet (New from template), filling it up
 * to EMPTY_ROWS as a spreadsheet shows them: typed into or pasted at, they become its next rows.
 * A file's sheet, or a longer one, grows by Insert rows or a paste past its end; a `#` sheet by
 * neither.
 */
function emptyRowsAfter(sheet: WorkbookSheet | undefined, source: WorkbookInfo['source'] | undefined): number {
  if (!sheet || sheet.skipped || source !== 'template') return 0;
  return sheet.rows < EMPTY_ROWS ? EMPTY_ROWS - sheet.rows : 0;
}

/** The Excel row an empty row after the last would be: the numbers go on from the last row's. */
function nextRowNumber(sheet: WorkbookSheet, index: number): number {
  return sheet.first_row + index;
}

/** The workbook's name and state, as the grid and the mapping step head it. */
function WorkbookTitle({ info }: { info: WorkbookInfo }) {
  return (
    <>
      <h1 id="workbook-title" className="view-title">
        {info.name}
      </h1>
      <span className={`pill wb-${info.state}`} data-testid="workbook-state">
        {stateText(info)}
      </span>
    </>
  );
}

export function WorkbookView() {
  const { workbook, nav, client } = useStores();
  const id = useSlice('nav', (s) => s.place.workbookId);
  const info = useSlice('workbook', (s) => s.info);
  const sheetIndex = useSlice('workbook', (s) => s.sheet);
  const version = useSlice('workbook', (s) => s.version);
  const fault = useSlice('workbook', (s) => s.fault);
  const dark = useDarkScheme();
  const [selection, setSelection] = useState<GridSelection | undefined>();
  /** The mapping step reopened on a workbook staged through one (a customer's sheet). */
  const [remapping, setRemapping] = useState(false);
  /** The side panel shows the revisions (what Undo will undo) instead of the issues. */
  const [showHistory, setShowHistory] = useState(false);
  const chosen = selection?.current?.cell;

  useEffect(() => {
    if (id) void workbook.getState().open(id);
    // A load's batches come every 20 ms or so: reading the workbook and its pages again for each
    // kept the service's thread from the load itself (100,000 rows loaded from the grid ran at
    // 540 rows/s, against 4,800 without the window open). The bar follows the events themselves
    // (LoadProgress); the counts and the rows' outcomes, at most every PROGRESS_REFRESH_MS.
    const progressRefresh = throttled(() => void workbook.getState().refresh(), PROGRESS_REFRESH_MS);
    const stop = client.transport.onEvent?.((event) => {
      const { id: open, info: shown } = workbook.getState();
      // Its own state changes, and its load's batches (the rows' outcomes move the counts).
      if (event.type === 'workbook' && event.id === open) void workbook.getState().refresh();
      if (event.type === 'progress' && shown?.load?.transaction_id === event.transaction_id) progressRefresh.call();
    });
    return () => {
      progressRefresh.cancel();
      stop?.();
      workbook.getState().close();
    };
  }, [id, workbook, client]);

  // A file being read: its end comes as an event, and once more by asking, should the event come
  // before the view followed them (a small file is read in the time the event stream connects).
  const reading = info?.state === 'staging' || info?.state === 'validating';
  useEffect(() => {
    if (!reading) return undefined;
    const timer = setInterval(() => void workbook.getState().refresh(), READING_RECHECK_MS);
    return () => clearInterval(timer);
  }, [reading, workbook]);

  const sheet = info?.sheets.find((candidate) => candidate.index === sheetIndex);
  const emptyRows = emptyRowsAfter(sheet, info?.source);
  // Grid column 0 is the rows' Excel numbers (row-gutter.ts); the sheet's columns follow it.
  const editing = useGridEditing(sheet, selection, setSelection, GUTTER);
  // Issue tools (issue 13 points 4-6): a filtered row list, the plan and outcome columns after the sheet's, F8.
  const filtered = isFiltered(useSlice('workbook', (s) => s.filter));
  const filteredRows = useSlice('workbook', (s) => s.filteredRows);
  const infoKinds = useMemo(() => infoKindsOf(info), [info]);
  const largestRead = useMemo(() => largestRowRead(workbook.getState().pages), [workbook, version]);
  const columns = useMemo(
    () => [gutterColumn(sheet, largestRead), ...columnsOf(sheet), ...infoColumns(infoKinds, info)],
    [sheet, largestRead, infoKinds, info],
  );
  const navigation = useIssueNavigation(editing.gridRef, selection, setSelection, GUTTER);

  const issuesAt = useCallback(
    ([col, row]: Item): WorkbookIssue[] => {
      const found = workbook.getState().rowAt(row);
      const columnId = sheet?.columns[col - GUTTER]?.id;
      return found?.issues.filter((issue) => issue.column_id === columnId) ?? [];
    },
    [workbook, sheet],
  );

  const getCellContent = useCallback(
    ([col, row]: Item): GridCell => {
      // The empty rows after the last (emptyRowsAfter): blank, and typed or pasted into as new rows.
      if (sheet && !filtered && emptyRows > 0 && row >= sheet.rows) {
        const column = sheet.columns[col - GUTTER];
        return column ? gridCellFor(column, '', { readonly: false }) : BLANK_CELL;
      }
      const found = workbook.getState().rowAt(row);
      if (col < GUTTER) return gutterCell(found, dark);
      const column = sheet?.columns[col - GUTTER];
      if (sheet && col - GUTTER >= sheet.columns.length) return infoCell(infoKinds[col - GUTTER - sheet.columns.length], found, info);
      if (!found || !column) return { kind: GridCellKind.Loading, allowOverlay: false };
      const text = cellText(found.cells[String(column.id)]);
      const issues = found.issues.filter((issue) => issue.column_id === column.id);
      const tint = issues.some((issue) => issue.severity === 'error') ? ERROR_TINT : issues.length > 0 ? WARNING_TINT : undefined;
      return gridCellFor(column, text, { readonly: sheet?.skipped === true, themeOverride: tint ? { bgCell: tint } : undefined });
    },
    // `version` is a dependency so that a new page or an edit hands the grid a new function: it repaints.
    [workbook, sheet, version, infoKinds, info, dark, filtered, emptyRows],
  );

  if (!id) return null;
  if (!info) return fault ? <FaultNotice fault={fault} /> : <Loading what="the workbook" />;
  // Opened a moment ago: its file is being read, or was refused (its reason, what to do).
  if ((info.state === 'staging' && info.sheets.length === 0) || (info.state === 'failed' && info.load === null)) {
    return (
      <section className="workbook-view" aria-labelledby="workbook-title">
        <div className="workbook-head">
          <button type="button" onClick={() => nav.getState().go({ view: 'workbooks' })}>
            ‹ Workbooks
          </button>
          <WorkbookTitle info={info} />
        </div>
        <WorkbookNotOpen info={info} onBack={() => nav.getState().go({ view: 'workbooks' })} />
      </section>
    );
  }
  if (info.state === 'mapping' || (remapping && info.mapping !== null)) {
    return (
      <section className="workbook-view" aria-labelledby="workbook-title">
        <div className="workbook-head">
          <button type="button" onClick={() => (remapping ? setRemapping(false) : nav.getState().go({ view: 'workbooks' }))}>
            {remapping ? '‹ Back to the grid' : '‹ Workbooks'}
          </button>
          <WorkbookTitle info={info} />
        </div>
        <MappingStep
          info={info}
          onConfirmed={() => {
            setRemapping(false);
            void workbook.getState().reload();
          }}
        />
      </section>
    );
  }
  const chosenIssues = chosen ? issuesAt(chosen) : [];
  const chosenRow = chosen ? workbook.getState().rowAt(chosen[1]) : undefined;
  // A sheet column by its letters (D4); the row numbers, a plan or an outcome column by its title (Outcome 4).
  const chosenColumn = chosen && sheet?.columns[chosen[0] - GUTTER];
  const chosenName =
    !chosen || !sheet
      ? ''
      : chosenColumn
        ? `${chosenColumn.letter}${chosenRow?.row ?? (chosen[1] >= sheet.rows ? nextRowNumber(sheet, chosen[1]) : '')}`
        : `${columns[chosen[0]]?.title ?? ''} ${chosenRow?.row ?? ''}`;

  return (
    <section
      className="workbook-view"
      aria-labelledby="workbook-title"
      onKeyDown={(event) => navigation.onKeyDown(event) || editing.onKeyDown(event)}
    >
      <div className="workbook-head">
        <button type="button" onClick={() => nav.getState().go({ view: 'workbooks' })}>
          ‹ Workbooks
        </button>
        <WorkbookTitle info={info} />
        <span className="muted" data-testid="workbook-counts">
          {plural(info.counts.rows, 'row')}, {plural(info.counts.errors, 'error')}, {plural(info.counts.warnings, 'warning')}
        </span>
        <WorkbookProfileNote workbook={info} />
        <span className="sources-gap" />
        <WorkbookActions />
        {info.mapping?.applied && (
          <button type="button" title="The customer's columns and how they were mapped" onClick={() => setRemapping(true)}>
            Mapping
          </button>
        )}
        <button type="button" disabled={!info.can_undo} onClick={() => void workbook.getState().step('undo')}>
          Undo
        </button>
        <button type="button" disabled={!info.can_redo} onClick={() => void workbook.getState().step('redo')}>
          Redo
        </button>
      </div>
      {fault && <FaultNotice fault={fault} />}
      <SheetTabs
        kind="sheet"
        current={sheetIndex}
        onShow={(index) => workbook.getState().showSheet(index)}
        tabs={info.sheets.map((candidate) => ({
          index: candidate.index,
          name: candidate.name,
          skipped: candidate.skipped,
          title: candidate.skipped ? 'A # sheet: kept and saved, never loaded' : (candidate.model_type ?? undefined),
          errors: candidate.errors,
        }))}
      />
      <GridEditBar editing={editing} selection={selection} />
      {sheet && sheet.directive !== null && <DirectiveBanner sheet={sheet} />}
      <div className="workbook-body">
        {/* data-version / data-pages: set in the commit that hands the grid new rows (glide draws its canvas in that commit); the UI bench reads them. */}
        <div
          className="workbook-grid"
          data-version={version}
          data-pages={[...workbook.getState().pages.keys()].join(' ')}
          onPaste={editing.onPaste}
          onMouseLeave={editing.clearHover}
        >
          <DataEditor
            ref={editing.gridRef}
            {...editing.gridProps}
            key={`${sheetIndex}`}
            columns={columns}
            rows={filtered ? (filteredRows ?? 0) : (sheet?.rows ?? 0) + emptyRows}
            getCellContent={getCellContent}
            // The grid's own markers count 1..n: the gutter column says each row's Excel number instead, filtered or not.
            rowMarkers="none"
            onCellClicked={([col, row], event) => {
              if (col < GUTTER) setSelection(gutterSelection(row, event.shiftKey, selection));
            }}
            theme={dark ? DARK_GRID_THEME : undefined}
            width="100%"
            height="100%"
            gridSelection={selection}
            onGridSelectionChange={setSelection}
          />
        </div>
        {showHistory ? (
          <aside className="issue-panel" aria-label="History of the workbook">
            <h2 className="side-panel-head">
              History
              <button type="button" className="side-switch" onClick={() => setShowHistory(false)}>
                Issues
              </button>
            </h2>
            <HistoryPanel />
          </aside>
        ) : (
          <IssuePanel sheet={sheet} onNavigate={(direction) => void navigation.go(direction)} onHistory={() => setShowHistory(true)} />
        )}
      </div>
      <CellTooltip hovered={editing.hovered} sheet={sheet} lead={GUTTER} />
      <ChangedSinceLoad />
      <div className="cell-issues" role="status" aria-live="polite" data-testid="cell-issues">
        {chosen && chosenIssues.length === 0 && <span className="muted">{chosenName}: no issue</span>}
        {chosenRow?.plan && (
          <span className="muted">
            {' '}
            Row {chosenRow.row} plan: {chosenRow.plan.action}
            {chosenRow.plan.changes.map((change) => ` ${change.field}: ${String(change.old ?? '')} -> ${String(change.new ?? '')}`)}
          </span>
        )}
        <RowOutcomeLink row={chosenRow} />
        <LoadedRowNote row={chosenRow} modelType={sheet?.model_type} />
        {chosenIssues.map((issue, at) => (
          <p key={at} className={`cell-issue ${issue.severity}`}>
            <strong>{chosenName}</strong> {issue.severity}: {issue.message}
          </p>
        ))}
        <CellFix issues={chosenIssues} rowId={chosenRow?.id} columnId={chosenColumn ? chosenColumn.id : undefined} />
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
  // Loaded rows edited since are loaded again, as modifies of their instances.
  const allLoaded = info.load !== null && info.load.loaded >= info.load.total && info.load.changed === 0;
  const save = async (withIssues: boolean): Promise<void> => {
    const file = await workbook.getState().save(withIssues);
    if (file) saveFile(file.bytes, file.fileName, file.type);
  };
  return (
    <span className="workbook-actions">
      <RevertNote />
      {info.plan && (
        <span className="muted" data-testid="plan-totals">
          plan: {info.plan.totals.add} add, {info.plan.totals.modify} modify, {info.plan.totals.delete} delete, {info.plan.totals.unchanged}{' '}
          unchanged, {info.plan.totals.conflict} conflict, {info.plan.totals.error} error
          {info.plan.revision !== info.revision && ' (stale: plan again)'}
        </span>
      )}
      <LoadProgress />
      <button type="button" disabled={busy} onClick={() => void workbook.getState().plan()}>
        Plan
      </button>
      {info.profile !== null ? (
        <PushFromSync profile={info.profile} name={info.name} />
      ) : (
        <LocalLoadButtons busy={busy} allLoaded={allLoaded} failedRows={failedRows} errors={info.counts.errors} />
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

/** Load and Retry into the Local store: a Local workbook's way out (a profile's is pushed instead). */
function LocalLoadButtons({
  busy,
  allLoaded,
  failedRows,
  errors,
}: {
  busy: boolean;
  allLoaded: boolean;
  failedRows: number;
  errors: number;
}) {
  const { workbook } = useStores();
  return (
    <>
      <button
        type="button"
        className="primary"
        disabled={busy || errors > 0 || allLoaded}
        title={errors > 0 ? 'Fix the errors first: a workbook with errors is not loaded' : undefined}
        onClick={() => void workbook.getState().load('all', false)}
      >
        Load
      </button>
      {failedRows > 0 && (
        <button type="button" disabled={busy} onClick={() => void workbook.getState().load('failed', true)}>
          Retry {failedRows} failed
        </button>
      )}
    </>
  );
}
