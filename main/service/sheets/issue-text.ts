import type { SheetIssue } from './sheet-types';

/**
 * Where an issue is, in the words of the workbook: the sheet, the Excel row, the column letters
 * and the header the engineer sees there. Every message starts with that place ("Row 7,
 * Directory Number (D7): ..."), so it can be acted on without reading the JSON around it.
 */
export interface IssuePlace {
  sheet: string;
  row: number;
  column: string;
  /** Field path or meta column name. */
  field: string;
  /** The header text, or the field's title when no column holds it. */
  label: string;
}

export function placeText(place: IssuePlace): string {
  if (place.row === 0) return `Sheet '${place.sheet}'${place.column ? `, column ${place.column}` : ''}`;
  if (place.column) return `Row ${place.row}, ${place.label} (${place.column}${place.row})`;
  return `Row ${place.row}${place.label ? `, ${place.label}` : ''}`;
}

/** `what` is the rest of the sentence: what is wrong, then what to do. */
export function issueAt(place: IssuePlace, severity: SheetIssue['severity'], code: string, what: string): SheetIssue {
  return {
    sheet: place.sheet,
    row: place.row,
    column: place.column,
    field: place.field,
    severity,
    code,
    message: `${placeText(place)}: ${what}.`,
  };
}

/** Quotes a cell value in a message, shortened so a message stays one readable line (the rules' own). */
export { quoted } from '../domain/rules/text';
