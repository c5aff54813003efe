import type { WorkbookCell, WorkbookSuggestion } from '../contract/workbook-api';
import { isWithin } from '../domain/hierarchy';
import type { Store } from '../domain/store';
import type { SheetIssue } from '../sheets/sheet-types';
import { fieldAt } from '../sheets/validate-context';
import type { SheetContext } from './staged-sheet';
import { cellText } from './workbook-cells';

/**
 * The fix of an issue, where it is obvious: the text form of a number (or date, or TRUE/FALSE)
 * Excel stored in a text column, the valid choice nearest to what was typed, the text without
 * the spaces around it, an Available number of the inventory for one already taken. A
 * suggestion depends only on the cell, the issue and the store, so validating again (in part or
 * whole) suggests the same.
 */
const TEXT_FORM_CODES = new Set(['numeric-in-text-column', 'boolean-in-text-column', 'date-in-text-column']);
const ACTIONS = ['add', 'modify', 'delete'];

function distance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = previous[0];
    previous[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = previous[j];
      previous[j] = Math.min(previous[j] + 1, previous[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length];
}

/** The choice closest to the text: the same ignoring case and spaces, else the fewest edits (ties: the first listed). */
export function nearestChoice(text: string, choices: string[]): string | undefined {
  const plain = text.trim().toLowerCase();
  const same = choices.find((choice) => choice.toLowerCase() === plain);
  if (same !== undefined) return same;
  let best: { choice: string; cost: number } | undefined;
  for (const choice of choices) {
    const cost = distance(plain, choice.toLowerCase());
    if (!best || cost < best.cost) best = { choice, cost };
  }
  // Past half the word, a "nearest" choice is a guess, not an obvious fix.
  return best && best.cost <= Math.max(2, Math.ceil(plain.length / 2)) ? best.choice : undefined;
}

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

export function suggestionFor(store: Store, context: SheetContext, issue: SheetIssue, cell: WorkbookCell): WorkbookSuggestion | null {
  if (cell === null) return null;
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
  if (issue.severity === 'error' && typeof cell === 'string' && cell.trim() !== cell && cell.trim() !== '') {
    return { label: 'Remove the spaces around it', value: cell.trim() };
  }
  return null;
}
