import type { WorkbookCell, WorkbookSuggestion } from '../contract/workbook-api';
import { isWithin } from '../domain/hierarchy';
import type { Store } from '../domain/store';
import { quoted } from '../domain/rules/text';
import { nearestChoice } from '../schema/nearest-choice';
import { withoutControlCharacters } from '../schema/text-hygiene';
import type { SheetIssue } from '../sheets/sheet-types';
import { fieldAt } from '../sheets/validate-context';
import type { SheetContext } from './staged-sheet';
import { cellText } from './workbook-cells';

/**
 * The fix of an issue, where it is obvious: the text form of a number (or date, or TRUE/FALSE)
 * Excel stored in a text column, the valid choice nearest to what was typed, the text without
 * the spaces around it or its control characters, an Available number of the inventory for one
 * already taken. A suggestion depends only on the cell, the issue and the store, so validating
 * again (in part or whole) suggests the same.
 */
const TEXT_FORM_CODES = new Set(['numeric-in-text-column', 'boolean-in-text-column', 'date-in-text-column']);
const ACTIONS = ['add', 'modify', 'delete'];

/** The first Available number after `pattern` in the inventory on the row's branch, with as many digits. */
function freeNumber(store: Store, nodePath: string, pattern: string): string | undefined {
  for (const entry of store.keyHolders.inventoryAfter(JSON.stringify([pattern]))) {
    const number = (JSON.parse(entry.bkey) as string[])[0] ?? '';
    if (entry.status === 'Available' && number.length === pattern.length && isWithin(nodePath, entry.hierarchyPath)) return number;
  }
  return undefined;
}

function rowNodePath(context: SheetContext, store: Store): string | undefined {
  const text = context.parsed.directive.hierarchy;
  if (text === undefined) return undefined;
  return (store.nodes.get(text) ?? store.nodes.getByPath(text))?.path;
}

/**
 * The text without its tabs, line breaks and other control characters. In a field with choices
 * only when that leaves a choice: a block pasted into one cell has no one value to keep.
 */
function withoutControl(context: SheetContext, issue: SheetIssue, cell: string): WorkbookSuggestion | null {
  const cleaned = withoutControlCharacters(cell).trim();
  const choices = fieldAt(context.model, issue.field)?.choices;
  if (cleaned === '' || (choices && !choices.some((choice) => choice.value === cleaned))) return null;
  return { label: `Remove the control characters: ${quoted(cleaned)}`, value: cleaned };
}

export function suggestionFor(store: Store, context: SheetContext, issue: SheetIssue, cell: WorkbookCell): WorkbookSuggestion | null {
  if (cell === null) return null;
  // The validator's own fix (the form the inventory holds a number in) knows more than the cell.
  if (issue.fix) return { label: issue.fix.label, value: issue.fix.value };
  const text = cellText(cell);
  if (TEXT_FORM_CODES.has(issue.code)) return { label: `Store it as the text '${text}'`, value: text };
  if (issue.code === 'not-a-choice' || issue.code === 'bad-action') {
    const choices =
      issue.code === 'bad-action' ? ACTIONS : (fieldAt(context.model, issue.field)?.choices ?? []).map((choice) => choice.value);
    const nearest = nearestChoice(text, choices);
    if (nearest !== undefined) return { label: `Use '${nearest}'`, value: nearest };
  }
  if (issue.code === 'number-not-available' && typeof cell === 'string') {
    const path = rowNodePath(context, store) ?? /at ([\w.-]+);/.exec(issue.message)?.[1];
    const free = path ? freeNumber(store, path, cell) : undefined;
    if (free) return { label: `Use ${free}, the next Available number`, value: free };
  }
  if (issue.code === 'control-characters' && typeof cell === 'string') return withoutControl(context, issue, cell);
  if (issue.severity === 'error' && typeof cell === 'string' && cell.trim() !== cell && cell.trim() !== '') {
    return { label: 'Remove the spaces around it', value: cell.trim() };
  }
  return null;
}
