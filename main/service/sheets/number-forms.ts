import { valueAt } from './write-cells';
import { clause } from '../domain/rules/problem';
import { quoted } from '../domain/rules/text';
import type { NodeRow } from '../store/nodes-repo';
import type { OverlayRulesView } from './overlay-rules-view';
import type { IssueFix, SheetIssue } from './sheet-types';
import { fieldAt, report, type RowCheck } from './validate-context';

/**
 * A directory number that lost part of itself on the way into a cell: Excel (or LibreOffice
 * opening a CSV) stores +33140001026 as the number 33140001026, and 0140001026 as 140001026. Its
 * text form is then not the number the engineer meant, and loading it makes a line whose number
 * the inventory does not hold while the inventory's own stays Available.
 *
 * So a number is given back in the form the internal number inventory on the row's branch holds
 * it in, and only when exactly one form is held: that is certain. Where none (or several) is,
 * the message and the fix say what cannot be known, and the fix keeps the digits as they are; it
 * never adds a + or a 0 on a guess.
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

/**
 * The numeric-cell warnings of a row's directory-number fields, restated with the form the
 * inventory holds (and that form as the fix), or with what cannot be known.
 */
export function restoreNumberForms(check: RowCheck, rules: OverlayRulesView, node: NodeRow): void {
  for (const issue of check.issues) {
    if (issue.code !== 'numeric-in-text-column' || fieldAt(check.model, issue.field)?.format !== 'directory-number') continue;
    const digits = valueAt(check.row.data, issue.field);
    if (typeof digits !== 'string' || !/^\d+$/.test(digits)) continue;
    const held = heldForms(rules, node, digits);
    const certain = held.length === 1 ? held[0] : undefined;
    let fix: IssueFix;
    if (certain && certain.form !== digits) {
      issue.message = restated(
        issue,
        `Excel stored ${certain.form} as the number ${digits}, dropping its ${certain.form.slice(0, certain.form.length - digits.length)}: ` +
          `the internal number inventory at ${certain.at} holds ${quoted(certain.form)} (${certain.status}); store it as that text, in a column formatted as Text`,
      );
      fix = {
        label: `Store it as the text ${quoted(certain.form)}, as the inventory holds it (${digits} -> ${certain.form})`,
        value: certain.form,
      };
    } else if (certain) {
      fix = { label: `Store it as the text ${quoted(digits)}, as the inventory holds it`, value: digits };
    } else {
      const why =
        held.length === 0
          ? 'the internal number inventory does not hold it in any form'
          : `the inventory holds it as ${held.map((entry) => quoted(entry.form)).join(' and as ')}`;
      // The reader's own words stay first (what the cell holds), then what cannot be known.
      issue.message = restated(
        issue,
        `${clause(issue.message.slice(issue.message.indexOf(': ') + 2))}; whether it had a + or a leading 0 before it was stored as a number cannot be known here (${why})`,
      );
      fix = {
        label: `Store it as the text ${quoted(digits)}: a + or a leading 0 it may have had cannot be known (${why}), type it if it had one`,
        value: digits,
      };
    }
    issue.fix = fix;
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
