import {
  CompactSelection,
  DataEditor,
  GridCellKind,
  type DataEditorRef,
  type GridCell,
  type GridColumn,
  type GridSelection,
  type Item,
} from '@glideapps/glide-data-grid';
import '@glideapps/glide-data-grid/dist/index.css';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ViewerMatch, ViewerSheet } from '../../../main/service/contract/viewer-api';
import { FaultNotice } from '../components/FaultNotice';
import { SheetTabs } from '../components/SheetTabs';
import { Loading } from '../components/States';
import { useSlice, useStores } from '../store/stores';
import { FindBox } from './viewer/FindBox';
import { CURRENT_MATCH_TINT, DARK_GRID_THEME, MATCH_TINT } from './viewer/grid-theme';
import { useDarkScheme } from './workbooks/use-dark-scheme';
import './viewer/viewer.css';

/**
 * An export or an .xlsx file, read-only, in the spreadsheet grid (README: Viewing exports): its
 * sheets as tabs in tab order, the header rows as the grid's frozen header, the file's frozen
 * columns and column widths, the directive (cell A1 of a directive sheet) as a banner above, and
 * a find that highlights every match and moves the grid to each in turn. "Edit as workbook"
 * stages the same export (or file) as a workbook and opens it in the workbook grid.
 */
const DEFAULT_WIDTH = 120;

function columnsOf(sheet: ViewerSheet | undefined): GridColumn[] {
  return (sheet?.columns ?? []).map((column) => ({
    id: column.letter,
    title: column.title || column.letter,
    // The file's width, within what stays readable and usable on screen.
    width: Math.min(600, Math.max(40, column.width ?? DEFAULT_WIDTH)),
  }));
}

const matchKey = (sheet: number, index: number, column: number): string => `${sheet}:${index}:${column}`;

export function ViewerView() {
  const { viewer, nav } = useStores();
  const placeId = useSlice('nav', (s) => s.place.viewerId);
  const info = useSlice('viewer', (s) => s.info);
  const sheetIndex = useSlice('viewer', (s) => s.sheet);
  const version = useSlice('viewer', (s) => s.version);
  const busy = useSlice('viewer', (s) => s.busy);
  const fault = useSlice('viewer', (s) => s.fault);
  const find = useSlice('viewer', (s) => s.find);
  const dark = useDarkScheme();
  const grid = useRef<DataEditorRef>(null);
  const [selection, setSelection] = useState<GridSelection | undefined>();

  useEffect(() => {
    if (placeId) void viewer.getState().show(placeId);
  }, [placeId, viewer]);

  const sheet = info?.sheets.find((candidate) => candidate.index === sheetIndex);
  const columns = useMemo(() => columnsOf(sheet), [sheet]);
  const current: ViewerMatch | undefined = find && find.at >= 0 ? find.matches[find.at] : undefined;
  const matches = useMemo(
    () => new Set((find?.matches ?? []).map((match) => matchKey(match.sheet, match.index, match.column))),
    [find?.matches],
  );

  // The find moved: bring its cell into view and select it, so the keyboard goes on from there.
  useEffect(() => {
    if (!current || current.sheet !== sheetIndex) return;
    grid.current?.scrollTo(current.column, current.index, 'both', 0, 0, { hAlign: 'center', vAlign: 'center' });
    const cell: Item = [current.column, current.index];
    setSelection({
      current: { cell, range: { x: cell[0], y: cell[1], width: 1, height: 1 }, rangeStack: [] },
      columns: CompactSelection.empty(),
      rows: CompactSelection.empty(),
    });
    // Only a move of the find scrolls: a selection the user makes stays where it is.
  }, [current, sheetIndex]);

  const getCellContent = useCallback(
    ([col, row]: Item): GridCell => {
      const found = viewer.getState().rowAt(row);
      if (!found) return { kind: GridCellKind.Loading, allowOverlay: false };
      const text = found.cells[col] ?? '';
      const isCurrent = current !== undefined && current.sheet === sheetIndex && current.index === row && current.column === col;
      const tint = isCurrent ? CURRENT_MATCH_TINT : matches.has(matchKey(sheetIndex, row, col)) ? MATCH_TINT : undefined;
      return {
        kind: GridCellKind.Text,
        data: text,
        displayData: text,
        // The overlay shows a long value whole; `readonly` keeps it from being edited.
        allowOverlay: true,
        readonly: true,
        themeOverride: tint ? { bgCell: tint } : undefined,
      };
    },
    // `version` is a dependency so that a new page or a find hands the grid a new function: it repaints.
    [viewer, sheetIndex, matches, current, version],
  );

  const editAsWorkbook = async (): Promise<void> => {
    const id = await viewer.getState().editAsWorkbook();
    if (id) nav.getState().go({ view: 'workbook', workbookId: id });
  };

  if (!info) {
    if (fault) return <FaultNotice fault={fault} />;
    return <Loading what={busy ? busy.replace(/^Reading /, '').replace(/\.\.\.$/, '') : 'the viewer'} />;
  }
  const chosen = selection?.current?.cell;
  const chosenRow = chosen ? viewer.getState().rowAt(chosen[1]) : undefined;
  const chosenText =
    chosen && chosenRow ? `${sheet?.columns[chosen[0]]?.letter ?? ''}${chosenRow.row}: ${chosenRow.cells[chosen[0]] ?? ''}` : '';

  return (
    <section className="viewer-view" aria-labelledby="viewer-title">
      <div className="viewer-head">
        <button type="button" onClick={() => nav.getState().back()}>
          ‹ Back
        </button>
        <h1 id="viewer-title" className="view-title">
          {info.name}
        </h1>
        <span className="pill">read-only</span>
        <span className="muted" data-testid="viewer-counts">
          {(sheet?.rows ?? 0).toLocaleString()} rows in {sheet?.name ?? 'no sheet'}
        </span>
        <span className="viewer-gap" />
        <FindBox />
        <button
          type="button"
          className="primary"
          disabled={busy !== undefined}
          title="Stage the same rows as a workbook: edit, check, plan and load them"
          onClick={() => void editAsWorkbook()}
        >
          Edit as workbook
        </button>
      </div>
      {busy && (
        <p className="viewer-note" role="status">
          {busy}
        </p>
      )}
      {fault && <FaultNotice fault={fault} />}
      {info.truncated && (
        <p className="viewer-note" role="note">
          This file holds more cells than the viewer shows: the rows past the first million cells are left out. Edit it as a workbook to see
          every row.
        </p>
      )}
      <SheetTabs
        kind="viewer"
        current={sheetIndex}
        onShow={(index) => viewer.getState().showSheet(index)}
        tabs={info.sheets.map((candidate) => ({
          index: candidate.index,
          name: candidate.name,
          skipped: candidate.skipped,
          title: candidate.skipped ? 'A # sheet: a bulk load skips it' : undefined,
        }))}
      />
      {sheet?.directive && (
        <p className="viewer-directive" aria-label="Directive">
          {sheet.directive}
        </p>
      )}
      <div className="viewer-grid">
        <DataEditor
          key={`${info.id}:${sheetIndex}`}
          ref={grid}
          columns={columns}
          rows={sheet?.rows ?? 0}
          getCellContent={getCellContent}
          freezeColumns={Math.min(sheet?.frozen_columns ?? 0, Math.max(0, columns.length - 1))}
          rowMarkers="number"
          theme={dark ? DARK_GRID_THEME : undefined}
          width="100%"
          height="100%"
          gridSelection={selection}
          onGridSelectionChange={setSelection}
          getCellsForSelection
        />
      </div>
      <div className="viewer-cell" role="status" aria-live="polite" data-testid="viewer-cell">
        {chosenText}
      </div>
    </section>
  );
}
