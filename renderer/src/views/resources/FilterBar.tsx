import { useState } from 'react';
import { FILTER_CONDITIONS, type FilterCondition, type FilterRow } from '../../store/resources-store';

const CONDITION_TITLES: Record<FilterCondition, string> = {
  contains: 'contains',
  startswith: 'starts with',
  endswith: 'ends with',
  equals: 'equals',
};

interface FilterBarProps {
  fields: { name: string; title: string }[];
  applied: FilterRow[];
  onApply(filters: FilterRow[]): void;
}

/**
 * The spec's filter sets: field (a summary attribute), condition and text, as many rows as the
 * user adds. Rows are edited here and sent together with Apply.
 */
export function FilterBar({ fields, applied, onApply }: FilterBarProps) {
  const blank = (): FilterRow => ({ field: fields[0]?.name ?? '', condition: 'contains', text: '' });
  const [rows, setRows] = useState<FilterRow[]>(() => (applied.length > 0 ? applied : [blank()]));
  const edit = (index: number, change: Partial<FilterRow>): void =>
    setRows(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const usesEquals = rows.length > 1 && rows.some((row) => row.condition === 'equals' && row.text.trim() !== '');
  const active = applied.filter((row) => row.text.trim() !== '').length;
  return (
    <form
      className="res-filters"
      aria-label="Filter"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(rows.map((row) => ({ ...row, field: row.field || (fields[0]?.name ?? '') })));
      }}
    >
      {rows.map((row, index) => (
        <div className="res-filter-row" key={index}>
          <span className="res-filter-lead">{index === 0 ? 'Filter' : 'and'}</span>
          <select
            aria-label={`Filter ${index + 1} field`}
            value={row.field}
            onChange={(event) => edit(index, { field: event.target.value })}
          >
            {fields.map((field) => (
              <option key={field.name} value={field.name}>
                {field.title}
              </option>
            ))}
          </select>
          <select
            aria-label={`Filter ${index + 1} condition`}
            value={row.condition}
            onChange={(event) => edit(index, { condition: event.target.value as FilterCondition })}
          >
            {FILTER_CONDITIONS.map((condition) => (
              <option key={condition} value={condition}>
                {CONDITION_TITLES[condition]}
              </option>
            ))}
          </select>
          <input
            aria-label={`Filter ${index + 1} text`}
            placeholder="text"
            value={row.text}
            onChange={(event) => edit(index, { text: event.target.value })}
          />
          {rows.length > 1 && (
            <button
              type="button"
              className="res-icon"
              aria-label={`Remove filter ${index + 1}`}
              title="Remove this filter"
              onClick={() => setRows(rows.filter((_, i) => i !== index))}
            >
              ×
            </button>
          )}
          {index === rows.length - 1 && (
            <>
              <button type="button" onClick={() => setRows([...rows, blank()])}>
                + Add filter
              </button>
              <button type="submit" className="primary">
                Apply
              </button>
              {(active > 0 || rows.some((r) => r.text !== '')) && (
                <button
                  type="button"
                  onClick={() => {
                    setRows([blank()]);
                    onApply([]);
                  }}
                >
                  Clear
                </button>
              )}
              {active > 0 && <span className="pill">{active === 1 ? '1 filter on' : `${active} filters on`}</span>}
            </>
          )}
        </div>
      ))}
      {usesEquals && <p className="res-hint">With “equals” in one row, the service ignores the other rows.</p>}
    </form>
  );
}
