import type { Json, JsonObject } from '../api-types';
import {
  controlCharactersMessage,
  hasControlCharacters,
  hasSpacesAround,
  spacesAroundMessage,
  withoutControlCharacters,
} from '../schema/text-hygiene';
import type { RawCell } from './cell-value';
import type { PathSegment } from './field-paths';
import { fieldCell, metaText } from './field-value';
import { META_NAMES, type ColumnBinding, type MetaColumn } from './header-resolve';
import { issueAt, quoted, type IssuePlace } from './issue-text';
import type { ParsedRow, RowAction, SheetIssue } from './sheet-types';

/**
 * One data row: each cell read for its column (meta column or field), the fields set at their
 * paths (nested objects, 0-based array items), and every cell that could not be read reported
 * while the rest of the row is still read, so one pass finds every problem.
 */
export interface RowContext {
  sheet: string;
  bindings: Map<number, ColumnBinding>;
  /** Shared by every row of the sheet: field path or meta name -> column letters. */
  columns: Record<string, string>;
  /** Columns without a header that held a value: column -> first row seen. */
  unlabelled: Map<number, number>;
}

const ACTIONS: readonly RowAction[] = ['add', 'modify', 'delete'];

function placeOf(context: RowContext, binding: ColumnBinding, row: number): IssuePlace {
  const field = binding.kind === 'meta' ? META_NAMES[binding.meta] : binding.path.text;
  return { sheet: context.sheet, row, column: binding.letters, field, label: binding.label };
}

function setPath(data: JsonObject, segments: PathSegment[], value: Json): void {
  let container: JsonObject | Json[] = data;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    const slot = container as Record<string | number, Json>;
    if (last) {
      slot[segment] = value;
      return;
    }
    if (slot[segment] === undefined || slot[segment] === null || typeof slot[segment] !== 'object') {
      slot[segment] = typeof segments[index + 1] === 'number' ? [] : {};
    }
    container = slot[segment] as JsonObject | Json[];
  });
}

/** Lists are filled from their first item: a gap would shift every later item's meaning. */
function closeGaps(value: Json, path: string, report: (path: string) => void): Json {
  if (Array.isArray(value)) {
    const items: Json[] = [];
    for (let index = 0; index < value.length; index += 1) {
      if (!(index in value)) report(`${path}.${index}`);
      else items.push(closeGaps(value[index], `${path}.${index}`, report));
    }
    return items;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) value[key] = closeGaps(item, path ? `${path}.${key}` : key, report);
  }
  return value;
}

/** What the meta columns that name something name, as their messages read it. */
const NAMED_META: Partial<Record<MetaColumn, string>> = { hierarchy: 'hierarchy node', template: 'CFT template', pkid: 'pkid' };

/**
 * A name a meta column gives with what it hides (control characters, spaces around it) is an
 * error, never trimmed silently: the row is still read with the name cleaned, so its other
 * problems show too, but it cannot load until the cell is corrected.
 */
function hiddenInName(meta: MetaColumn, raw: RawCell, place: IssuePlace, issues: SheetIssue[]): void {
  const what = NAMED_META[meta];
  if (what === undefined || raw.kind !== 'text' || raw.text.trim() === '') return;
  if (hasControlCharacters(raw.text)) issues.push(issueAt(place, 'error', 'control-characters', controlCharactersMessage(raw.text)));
  else if (hasSpacesAround(raw.text)) issues.push(issueAt(place, 'error', 'spaces-around', spacesAroundMessage(what, raw.text)));
}

function applyMeta(row: ParsedRow, binding: ColumnBinding & { kind: 'meta' }, raw: RawCell, place: IssuePlace, issues: SheetIssue[]): void {
  const { text, problem } = metaText(raw);
  if (problem) issues.push(issueAt(place, problem.severity, problem.code, problem.what));
  if (text === undefined) return;
  hiddenInName(binding.meta, raw, place, issues);
  if (binding.meta === 'action') {
    const action = text.toLowerCase();
    if (action === '') return;
    if ((ACTIONS as readonly string[]).includes(action)) row.action = action as RowAction;
    else {
      row.badAction = text;
      issues.push(
        issueAt(place, 'error', 'bad-action', `${quoted(text)} is not an action: write add, modify or delete (an empty cell adds)`),
      );
    }
  } else if (text !== '') {
    row[binding.meta as Exclude<MetaColumn, 'action'>] = NAMED_META[binding.meta] ? withoutControlCharacters(text).trim() : text;
  }
}

export function readDataRow(context: RowContext, rowNumber: number, cells: Map<number, RawCell>): { row: ParsedRow; issues: SheetIssue[] } {
  const row: ParsedRow = { rowNumber, action: 'add', data: {}, columns: context.columns };
  const issues: SheetIssue[] = [];
  for (const [column, raw] of cells) {
    const binding = context.bindings.get(column);
    if (!binding) {
      if (!context.unlabelled.has(column)) context.unlabelled.set(column, rowNumber);
      continue;
    }
    const place = placeOf(context, binding, rowNumber);
    if (binding.kind === 'meta') {
      applyMeta(row, binding, raw, place, issues);
      continue;
    }
    if (binding.path.readonly) continue;
    const cell = fieldCell(raw, binding.path.field);
    if (cell.problem) issues.push(issueAt(place, cell.problem.severity, cell.problem.code, cell.problem.what));
    if (cell.value !== undefined) setPath(row.data, binding.path.segments, cell.value);
  }
  closeGaps(row.data, '', (path) => {
    const place = { sheet: context.sheet, row: rowNumber, column: '', field: path, label: '' };
    issues.push(
      issueAt(
        place,
        'error',
        'array-gap',
        `${path} is empty while a later item of that list is given: fill the list from its first item (index 0) without gaps`,
      ),
    );
  });
  const errors = issues.filter((issue) => issue.severity === 'error').length;
  if (errors > 0) row.readErrors = errors;
  return { row, issues };
}
