import { useEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { useVirtualWindow } from './use-virtual-window';
import './VirtualTable.css';

const ROW_HEIGHT = 30;
const HEADER_HEIGHT = 32;
const CHECK_WIDTH = 40;
const MIN_COLUMN = 120;
const MAX_COLUMN = 260;
/** About one character of the bold 14px header font, and the room a sort mark and padding take. */
const CHAR_WIDTH = 8.5;
const HEADER_EXTRA = 46;

/**
 * One template and one minimum width for the header and every row, from the titles alone: a row
 * sized by its own content would shift its columns against the header's. A column is at least
 * wide enough for its title (within limits), so a header is not cut off where the content is short.
 */
function columnTemplate(columns: TableColumn[], checkable: boolean): CSSProperties {
  const widths = columns.map((column) =>
    Math.min(MAX_COLUMN, Math.max(MIN_COLUMN, Math.ceil(column.title.length * CHAR_WIDTH + HEADER_EXTRA))),
  );
  const check = checkable ? CHECK_WIDTH : 0;
  return {
    ['--vt-columns' as string]: `${checkable ? `${CHECK_WIDTH}px ` : ''}${widths.map((width) => `minmax(${width}px, 1fr)`).join(' ')}`,
    ['--vt-min-width' as string]: `${widths.reduce((sum, width) => sum + width, check)}px`,
  };
}

export interface TableColumn {
  key: string;
  title: string;
  /** Shown as aria-sort; a column with a sort state is sortable by clicking its header. */
  sort?: 'ascending' | 'descending' | 'none';
}

export interface VirtualTableProps {
  label: string;
  columns: TableColumn[];
  rowCount: number;
  rowKey(index: number): string;
  cell(index: number, column: TableColumn): ReactNode;
  /** Extra attributes of a row (test hooks such as data-pkid). */
  rowData?(index: number): Record<string, string>;
  isSelected?(index: number): boolean;
  /** With it, a checkbox column: a click toggles the row, a shift-click a range. */
  onToggle?(index: number, range: boolean): void;
  pageChecked?: boolean | 'mixed';
  onTogglePage?(checked: boolean): void;
  onSort?(key: string): void;
  onOpen?(index: number): void;
  /** Disables the checkboxes, with the reason as their title. */
  selectDisabled?: string;
  /** When it changes (a new page, a new order), the grid scrolls back to its first row. */
  resetKey?: string;
}

/**
 * A grid of fixed-height rows that renders only those in view, so a page of 2,000 rows scrolls
 * like one of 20. Focus stays on the grid and the active row is named by aria-activedescendant:
 * arrows move, Enter opens, Space checks.
 */
export function VirtualTable(props: VirtualTableProps) {
  const { columns, rowCount, onToggle } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const view = useVirtualWindow(scroller, rowCount, ROW_HEIGHT, HEADER_HEIGHT);
  const [active, setActive] = useState(0);
  const current = Math.min(active, Math.max(0, rowCount - 1));
  const template = useMemo(() => columnTemplate(columns, Boolean(onToggle)), [columns, onToggle]);

  useEffect(() => {
    setActive(0);
    if (scroller.current) scroller.current.scrollTop = 0;
  }, [props.resetKey]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const move = (index: number): void => {
      const next = Math.min(rowCount - 1, Math.max(0, index));
      setActive(next);
      view.scrollIntoView(next);
    };
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 600) / ROW_HEIGHT) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(current + 1),
      ArrowUp: () => move(current - 1),
      PageDown: () => move(current + page),
      PageUp: () => move(current - page),
      Home: () => move(0),
      End: () => move(rowCount - 1),
      Enter: () => props.onOpen?.(current),
      ' ': () => onToggle?.(current, event.shiftKey),
    };
    const action = event.target === event.currentTarget && rowCount > 0 ? keys[event.key] : undefined;
    if (!action) return;
    event.preventDefault();
    action();
  };

  return (
    <div
      ref={scroller}
      className="vt"
      role="grid"
      aria-label={props.label}
      aria-rowcount={rowCount + 1}
      aria-colcount={columns.length + (onToggle ? 1 : 0)}
      aria-multiselectable={onToggle ? true : undefined}
      aria-activedescendant={rowCount > 0 ? `vt-row-${current}` : undefined}
      tabIndex={0}
      style={template}
      onScroll={view.onScroll}
      onKeyDown={onKeyDown}
    >
      <HeaderRow {...props} />
      <div className="vt-body" style={{ height: rowCount * ROW_HEIGHT }}>
        {Array.from({ length: Math.max(0, view.last - view.first) }, (_, offset) => {
          const index = view.first + offset;
          return (
            <BodyRow key={props.rowKey(index)} table={props} index={index} active={index === current} onActivate={() => setActive(index)} />
          );
        })}
      </div>
    </div>
  );
}

function HeaderRow({ columns, onToggle, pageChecked, onTogglePage, onSort, selectDisabled }: VirtualTableProps) {
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (box.current) box.current.indeterminate = pageChecked === 'mixed';
  }, [pageChecked]);
  return (
    <div className="vt-row vt-head" role="row" aria-rowindex={1}>
      {onToggle && (
        <div className="vt-cell vt-check" role="columnheader">
          <input
            ref={box}
            type="checkbox"
            aria-label="Select all on this page"
            title={selectDisabled ?? 'Select all on this page'}
            disabled={Boolean(selectDisabled)}
            checked={pageChecked === true}
            onChange={(event) => onTogglePage?.(event.target.checked)}
          />
        </div>
      )}
      {columns.map((column) => (
        <div key={column.key} className="vt-cell" role="columnheader" aria-sort={column.sort}>
          {column.sort && onSort ? (
            <button type="button" className="vt-sort" onClick={() => onSort(column.key)} title={`Sort by ${column.title}`}>
              <span className="vt-title">{column.title}</span>
              <span aria-hidden="true" className="vt-sort-mark">
                {column.sort === 'ascending' ? '▲' : column.sort === 'descending' ? '▼' : '↕'}
              </span>
            </button>
          ) : (
            <span className="vt-title" title={column.title}>
              {column.title}
            </span>
          )}
        </div>
      ))}
    </div>
  );
}

interface BodyRowProps {
  table: VirtualTableProps;
  index: number;
  active: boolean;
  onActivate(): void;
}

function BodyRow({ table, index, active, onActivate }: BodyRowProps) {
  const selected = table.isSelected?.(index) ?? false;
  const onClick = (event: MouseEvent<HTMLDivElement>): void => {
    onActivate();
    if ((event.target as HTMLElement).closest('.vt-check')) return;
    table.onOpen?.(index);
  };
  return (
    <div
      id={`vt-row-${index}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={table.onToggle ? selected : undefined}
      className={`vt-row${selected ? ' selected' : ''}${active ? ' active' : ''}`}
      style={{ top: index * ROW_HEIGHT }}
      onClick={onClick}
      {...table.rowData?.(index)}
    >
      {table.onToggle && (
        <div className="vt-cell vt-check" role="gridcell">
          <input
            type="checkbox"
            aria-label={`Select row ${index + 1}`}
            title={table.selectDisabled}
            disabled={Boolean(table.selectDisabled)}
            checked={selected}
            onChange={() => undefined}
            onClick={(event) => table.onToggle?.(index, event.shiftKey)}
          />
        </div>
      )}
      {table.columns.map((column) => (
        <div key={column.key} className="vt-cell" role="gridcell">
          {table.cell(index, column)}
        </div>
      ))}
    </div>
  );
}
