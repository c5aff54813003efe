import { ApiError } from '../errors';
import type { ModelDef } from '../models/types';
import { fieldByName, fieldByTitle, squash, type FieldPath } from './field-paths';
import { columnLetters } from './sheet-xml-scan';

/**
 * Header cells to columns (decisions.md): after trimming and stripping a leading `#`, a header
 * is a meta column, else a field name, else a field title. One header that is none of these
 * fails the whole load before any row runs, naming the sheet and the cell.
 */
export type MetaColumn = 'hierarchy' | 'action' | 'template' | 'pkid' | 'comment';

/** How issues and `ParsedRow.columns` name the meta columns. */
export const META_NAMES: Record<MetaColumn, string> = {
  hierarchy: 'Hierarchy Node',
  action: 'Action',
  template: 'CFT Template',
  pkid: 'Unique Identifier (pkid)',
  comment: 'Comment',
};

// Squashed and without `_`, so `hierarchy_node` and `Hierarchy Node` are one column.
const META_ALIASES: Record<string, MetaColumn> = {
  hierarchynode: 'hierarchy',
  hierarchy: 'hierarchy',
  action: 'action',
  cfttemplate: 'template',
  cft: 'template',
  'uniqueidentifier(pkid)': 'pkid',
  uniqueidentifier: 'pkid',
  pkid: 'pkid',
  comment: 'comment',
  comments: 'comment',
};

interface ColumnBase {
  column: number;
  letters: string;
  /** The Excel row of its header cell. */
  row: number;
  /** The header as the engineer wrote it, for messages. */
  label: string;
}
export type ColumnBinding = (ColumnBase & { kind: 'meta'; meta: MetaColumn }) | (ColumnBase & { kind: 'field'; path: FieldPath });

export const headerText = (raw: string): string => raw.trim().replace(/^#\s*/, '').trim();

type Resolved = { binding: ColumnBinding } | { problem: string };

/** A header cell: its text and the row it is in (row 2, or row 4 where row 2 is empty). */
export interface HeaderCell {
  text: string;
  row: number;
}

function resolveOne(model: ModelDef, raw: string, column: number, row: number): Resolved {
  const label = headerText(raw);
  const base = { column, letters: columnLetters(column), row, label };
  const meta = META_ALIASES[squash(label).replace(/_/g, '')];
  if (meta) return { binding: { ...base, kind: 'meta', meta } };
  const byName = fieldByName(model, label);
  if (byName) return { binding: { ...base, kind: 'field', path: byName } };
  const byTitle = fieldByTitle(model, label);
  if (byTitle === 'ambiguous')
    return { problem: `column '${label}' is the title of more than one field of ${model.modelType}: use the field name instead` };
  if (byTitle) return { binding: { ...base, kind: 'field', path: byTitle } };
  return { problem: `column '${label}' is not a field or meta column of ${model.modelType}` };
}

const keyOf = (binding: ColumnBinding): string => (binding.kind === 'meta' ? `meta:${binding.meta}` : binding.path.text);

/** Two columns for one field, or for a field and a part of it, would make a row say two things. */
function clashOf(bindings: ColumnBinding[]): [ColumnBinding, ColumnBinding] | undefined {
  const seen = new Map<string, ColumnBinding>();
  for (const binding of bindings) {
    const key = keyOf(binding);
    const other = seen.get(key) ?? [...seen.entries()].find(([known]) => key.startsWith(`${known}.`) || known.startsWith(`${key}.`))?.[1];
    if (other) return [other, binding];
    seen.set(key, binding);
  }
  return undefined;
}

/** Resolves the header cells of a sheet, by 1-based column; empty headers are no column. */
export function resolveHeaders(sheet: string, model: ModelDef, headers: Map<number, HeaderCell>): ColumnBinding[] {
  const bindings: ColumnBinding[] = [];
  const problems: { cell: string; problem: string }[] = [];
  for (const [column, cell] of [...headers.entries()].sort((a, b) => a[0] - b[0])) {
    if (headerText(cell.text) === '') continue;
    const resolved = resolveOne(model, cell.text, column, cell.row);
    if ('problem' in resolved) problems.push({ cell: `${columnLetters(column)}${cell.row}`, problem: resolved.problem });
    else bindings.push(resolved.binding);
  }
  if (problems.length > 0) {
    const first = `Sheet '${sheet}', cell ${problems[0].cell}: ${problems[0].problem}`;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more column${problems.length > 2 ? 's' : ''}: see details)` : '';
    throw new ApiError(
      400,
      'unknown-column',
      `${first}${more}.`,
      problems.slice(0, 20).map((p) => ({ field: p.cell, message: p.problem })),
    );
  }
  const clash = clashOf(bindings);
  if (clash) {
    const [a, b] = clash;
    throw new ApiError(
      400,
      'duplicate-column',
      `Sheet '${sheet}', cells ${a.letters}${a.row} and ${b.letters}${b.row}: columns '${a.label}' and '${b.label}' both give ${keyOf(a).replace(/^meta:/, '')}; keep one of them.`,
    );
  }
  return bindings;
}
