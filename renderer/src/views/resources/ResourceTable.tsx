import { useCallback, useMemo } from 'react';
import type { ListAnswer } from '../../../../main/service/contract/resource-api';
import { VirtualTable, type TableColumn } from '../../components/VirtualTable';
import type { ListQuery, Selection } from '../../store/resources-store';
import { cellText, valueAt } from './format';

const TAGS = '__tags';

export interface ResourceColumn {
  name: string;
  title: string;
}

interface ResourceTableProps {
  answer: ListAnswer;
  query: ListQuery;
  columns: ResourceColumn[];
  modelTitle: string;
  selection: Selection;
  selectDisabled?: string;
  onSort(field: string): void;
  onToggle(index: number, range: boolean): void;
  onTogglePage(all: boolean): void;
  onOpen(href: string): void;
}

/** One page of a list in the virtual grid: the summary columns, the tags, a checkbox per row. */
export function ResourceTable({
  answer,
  query,
  columns,
  modelTitle,
  selection,
  selectDisabled,
  onSort,
  onToggle,
  onTogglePage,
  onOpen,
}: ResourceTableProps) {
  const rows = answer.resources;
  const orderBy = query.orderBy ?? answer.pagination.order_by;
  const direction = query.orderBy ? query.direction : answer.pagination.direction;
  const tableColumns = useMemo<TableColumn[]>(
    () => [
      ...columns.map(
        (column) =>
          ({
            key: column.name,
            title: column.title,
            sort: column.name === orderBy ? (direction === 'desc' ? 'descending' : 'ascending') : 'none',
          }) as TableColumn,
      ),
      { key: TAGS, title: 'Tags' },
    ],
    [columns, orderBy, direction],
  );
  const checked = rows.filter((row) => selection.hrefs.has(row.meta.href)).length;
  const rowKey = useCallback((index: number) => rows[index]?.meta.pkid ?? String(index), [rows]);
  return (
    <VirtualTable
      label={`${modelTitle}, page ${Math.floor(query.skip / query.limit) + 1}`}
      columns={tableColumns}
      rowCount={rows.length}
      rowKey={rowKey}
      resetKey={`${query.modelType}|${query.hierarchy}|${query.skip}|${query.limit}|${orderBy}|${direction}`}
      rowData={(index) => ({ 'data-pkid': rows[index]?.meta.pkid ?? '', 'data-href': rows[index]?.meta.href ?? '' })}
      cell={(index, column) => {
        const row = rows[index];
        if (!row) return null;
        if (column.key === TAGS)
          return (row.meta.tags ?? []).map((tag) => (
            <span key={tag} className="pill res-tag">
              {tag}
            </span>
          ));
        const text = cellText(valueAt(row.data, column.key));
        return text === '' ? <span className="muted">—</span> : <span title={text}>{text}</span>;
      }}
      isSelected={(index) => selection.hrefs.has(rows[index]?.meta.href ?? '')}
      onToggle={onToggle}
      pageChecked={checked === 0 ? false : checked === rows.length ? true : 'mixed'}
      onTogglePage={onTogglePage}
      onSort={onSort}
      onOpen={(index) => {
        const href = rows[index]?.meta.href;
        if (href) onOpen(href);
      }}
      selectDisabled={selectDisabled}
    />
  );
}
