import { valueAt } from './write-cells';
import { clause } from '../domain/rules/problem';
import { quoted } from '../domain/rules/text';
import type { NodeRow } from '../store/nodes-repo';
import type { OverlayRulesView } from './overlay-rules-view';
import type { IssueFix, SheetIssue } from './sheet-types';
import { fieldAt, report, type RowCheck } from './validate-context';
import { sheetForm, type WrittenForm } from './sheet-number-forms';

/**
 * A directory number that lost part of itself on the way into a cell: Excel (or LibreOffice
 * opening a CSV) stores +33140001026 as the number 33140001026, and 0140001026 as 140001026. Its
 * text form is then not the number the engineer meant, and loading it makes a line whose number
 * the inventory does not hold while the inventory's own stays Available.
 *
 * So a number is given back in the form the internal number inventory on the row's branch holds
 * it in, when exactly one form is held; else in the form the sheet's other numbers in the column
 * all share. Both are certain. Where neither is, the message and the fix say what cannot be
 * known, and the fix keeps the digits as they are; it never adds a + or a 0 on a guess.
 */

/** What a number loses in a numeric cell: a leading +, a leading 0 or 00 (the digits themselves first). */
export const lostForms = (digits: string): string[] => [digits, `+${digits}`, `0${digits}`, `00${digits}`];

/** The forms of the digits the inventory holds on the node's branch, as the earlier rows leave it. */
export function heldForms(rules: OverlayRulesView, node: NodeRow, digits: string): { form: string; status: string; at: string }[] {
  const held: { form: string; status: string; at: string }[] = [];
  for (const form of lostForms(digits)) {
    const entry = rules.numberEntry(node, form);
    if (entry) held.push({ form, status: entry.status, at: entry.hierarchyPath });
  }
  return held;
}

/** The issue's message with a new text after its place ("Row 7, Directory Number (D7): "). */
function restated(issue: SheetIssue, what: string): string {
  const cut = issue.message.indexOf(': ');
  return `${cut < 0 ? '' : issue.message.slice(0, cut + 2)}${what}.`;
}

/** The fix and message for a number whose form the inventory holds, certain (one form held). */
function fromInventory(issue: SheetIssue, digits: string, held: { form: string; status: string; at: string }): IssueFix {
  if (held.form === digits) return { label: `Store it as the text ${quoted(digits)}, as the inventory holds it`, value: digits };
  issue.message = restated(
    issue,
    `Excel stored ${held.form} as the number ${digits}, dropping its ${held.form.slice(0, held.form.length - digits.length)}: ` +
      `the internal number inventory at ${held.at} holds ${quoted(held.form)} (${held.status}); store it as that text, in a column formatted as Text`,
  );
  return { label: `Store it as the text ${quoted(held.form)}, as the inventory holds it (${digits} -> ${held.form})`, value: held.form };
}

/** The fix and message for a number the sheet's other numbers give a form, the inventory not holding another. */
function fromSheet(issue: SheetIssue, digits: string, written: WrittenForm, inventory: string): IssueFix {
  if (written.form === digits) {
    return {
      label: `Store it as the text ${quoted(digits)}, as the sheet's other numbers are written (${quoted(written.example)})`,
      value: digits,
    };
  }
  issue.message = restated(
    issue,
    `Excel stored ${written.form} as the number ${digits}, dropping its ${written.form.slice(0, written.form.length - digits.length)}: ` +
      `the sheet's other numbers in this column are written with it (${quoted(written.example)}), and ${inventory}; store it as that text, in a column formatted as Text`,
  );
  return {
    label: `Store it as the text ${quoted(written.form)}, as the sheet's other numbers are written (${digits} -> ${written.form})`,
    value: written.form,
  };
}

/**
 * The numeric-cell warnings of a row's directory-number fields, restated with the form the
 * inventory holds (and that form as the fix); else with the form the sheet's other numbers are
 * written in, when they agree (sheet-number-forms.ts); else with what cannot be known.
 */
export function restoreNumberForms(check: RowCheck, rules: OverlayRulesView, node: NodeRow): void {
  for (const issue of check.issues) {
    if (issue.code !== 'numeric-in-text-column' || fieldAt(check.model, issue.field)?.format !== 'directory-number') continue;
    const digits = valueAt(check.row.data, issue.field);
    if (typeof digits !== 'string' || !/^\d+$/.test(digits)) continue;
    const held = heldForms(rules, node, digits);
    if (held.length === 1) {
      issue.fix = fromInventory(issue, digits, held[0]);
      continue;
    }
    const written = sheetForm(digits, check.cache.columnTexts?.(check, issue) ?? []);
    const inInventory = written && held.find((entry) => entry.form === written.form);
    if (written && (held.length === 0 || inInventory)) {
      const inventory = inInventory
        ? `the internal number inventory at ${inInventory.at} holds ${quoted(written.form)} (${inInventory.status})`
        : 'the internal number inventory does not hold it in any form';
      issue.fix = fromSheet(issue, digits, written, inventory);
      continue;
    }
    const why =
      held.length === 0
        ? "the internal number inventory does not hold it in any form, nor do the sheet's other numbers agree on one"
        : `the inventory holds it as ${held.map((entry) => quoted(entry.form)).join(' and as ')}`;
    // The reader's own words stay first (what the cell holds), then what cannot be known.
    issue.message = restated(
      issue,
      `${clause(issue.message.slice(issue.message.indexOf(': ') + 2))}; whether it had a + or a leading 0 before it was stored as a number cannot be known here (${why})`,
    );
    issue.fix = {
      label: `Store it as the text ${quoted(digits)}: a + or a leading 0 it may have had cannot be known (${why}), type it if it had one`,
      value: digits,
    };
  }
}

/**
 * A number typed (or fixed) as digits alone that the inventory does not hold, while it holds the
 * same digits with a + or a leading 0: loaded as it is, the line would not be the inventory's
 * number and the inventory's would stay Available. A warning with the inventory's form as fix.
 */
export function otherFormWarning(check: RowCheck, rules: OverlayRulesView, node: NodeRow, pattern: string, at: string): void {
  if (!/^\d+$/.test(pattern)) return;
  // A numeric cell's own warning already says it (restoreNumberForms).
  if (check.issues.some((issue) => issue.field === at && issue.code === 'numeric-in-text-column')) return;
  const held = heldForms(rules, node, pattern).filter((entry) => entry.form !== pattern);
  if (held.length !== 1) return;
  const [{ form, status, at: where }] = held;
  report(
    check,
    at,
    'warning',
    'number-form-differs',
    `${quoted(pattern)} is not in the internal number inventory, but ${quoted(form)} is (${status} at ${where}): loaded as it is, ` +
      `the line's number would not be the inventory's and ${quoted(form)} would stay ${status}; write ${quoted(form)} if that is the number`,
  );
  check.issues[check.issues.length - 1].fix = { label: `Use ${quoted(form)}, the inventory's number (${pattern} -> ${form})`, value: form };
}
