import { ApiError } from '../errors';
import type { ModelDef } from '../models/types';
import type { RawCell } from './cell-value';
import { metaText } from './field-value';
import { META_NAMES, resolveHeaders, type ColumnBinding, type HeaderCell } from './header-resolve';
import { issueAt } from './issue-text';
import { readDataRow, type RowContext } from './sheet-row';
import { isDirective, modelOfSheetName, parseDirective } from './sheet-model';
import type { ParsedRow, ParsedSheet, SheetDirective, SheetIssue } from './sheet-types';
import { columnLetters, type MergeRange } from './sheet-xml-scan';
import type { RowPrecheck } from './row-precheck';

/**
 * One worksheet, row by row, in either layout of decisions.md. Directive layout: A1 holds
 * `entity: ...`, row 2 the field names (row 4's titles stand in where row 2 is empty), data from
 * row 5. Compact layout: row 1 holds the headers, data from row 2, the model from the sheet name.
 */
export type SheetEvent =
  | { type: 'sheet'; sheet: ParsedSheet }
  /** `pre`: what a reader thread worked out for the validator (row-precheck.ts), if asked. */
  | { type: 'row'; row: ParsedRow; issues: SheetIssue[]; pre?: RowPrecheck }
  | { type: 'issues'; issues: SheetIssue[] };

/** A row as read: its non-empty cells by 1-based column. */
export interface SheetRow {
  number: number;
  cells: Map<number, RawCell>;
}

const cellText = (raw: RawCell | undefined): string => (raw ? (metaText(raw).text ?? '') : '');

export class SheetReader {
  private directive?: { directive: SheetDirective; model: ModelDef };
  private readonly directiveHeaders = new Map<number, SheetRow>();
  private context?: RowContext;

  constructor(
    private readonly name: string,
    private readonly merges: MergeRange[],
  ) {}

  feed(row: SheetRow): SheetEvent[] {
    if (this.context) return [this.dataRow(row)];
    if (this.directive) {
      if (row.number <= 4) {
        this.directiveHeaders.set(row.number, row);
        return [];
      }
      return [...this.startDirective(), this.dataRow(row)];
    }
    if (row.number === 1 && isDirective(cellText(row.cells.get(1)))) {
      this.directive = parseDirective(this.name, cellText(row.cells.get(1)));
      return [];
    }
    if (row.number !== 1) {
      throw new ApiError(
        400,
        'bad-sheet',
        `Sheet '${this.name}': row 1 is empty; put the column headers in row 1, or a directive (entity: <model type>) in cell A1.`,
      );
    }
    const model = modelOfSheetName(this.name);
    const directive: SheetDirective = { entity: model.modelType, parallel: false, evaluateMacros: false };
    return this.start(model, directive, 'compact', this.headersOf(row));
  }

  /** What is left when the sheet ends: a directive sheet without data, columns without a header. */
  finish(): SheetEvent[] {
    const events = this.directive && !this.context ? this.startDirective() : [];
    if (!this.context || this.context.unlabelled.size === 0) return events;
    const issues = [...this.context.unlabelled].map(([column, row]) =>
      issueAt(
        { sheet: this.name, row, column: columnLetters(column), field: '', label: `column ${columnLetters(column)}` },
        'warning',
        'unlabelled-column',
        'this column has no header, so its values are ignored: give it a header or clear it',
      ),
    );
    return [...events, { type: 'issues', issues }];
  }

  private headersOf(row: SheetRow | undefined): Map<number, HeaderCell> {
    const cells = [...(row?.cells ?? new Map<number, RawCell>())];
    return new Map(cells.map(([column, raw]) => [column, { text: cellText(raw), row: row?.number ?? 0 }]));
  }

  private startDirective(): SheetEvent[] {
    const { directive, model } = this.directive as { directive: SheetDirective; model: ModelDef };
    const headers = this.headersOf(this.directiveHeaders.get(4));
    for (const [column, cell] of this.headersOf(this.directiveHeaders.get(2))) if (cell.text.trim() !== '') headers.set(column, cell);
    return this.start(model, directive, 'directive', headers);
  }

  private start(model: ModelDef, directive: SheetDirective, layout: ParsedSheet['layout'], headers: Map<number, HeaderCell>): SheetEvent[] {
    const bindings = resolveHeaders(this.name, model, headers);
    const columns: Record<string, string> = {};
    for (const binding of bindings) columns[binding.kind === 'meta' ? META_NAMES[binding.meta] : binding.path.text] = binding.letters;
    this.context = {
      sheet: this.name,
      bindings: new Map(bindings.map((binding) => [binding.column, binding])),
      columns,
      unlabelled: new Map(),
    };
    const firstDataRow = layout === 'directive' ? 5 : 2;
    const sheet: ParsedSheet = { name: this.name, modelType: model.modelType, layout, directive, rows: [], firstDataRow };
    const issues = [...this.readonlyIssues(bindings), ...this.mergeIssues(firstDataRow)];
    return issues.length > 0
      ? [
          { type: 'sheet', sheet },
          { type: 'issues', issues },
        ]
      : [{ type: 'sheet', sheet }];
  }

  private readonlyIssues(bindings: ColumnBinding[]): SheetIssue[] {
    return bindings
      .filter((binding) => binding.kind === 'field' && binding.path.readonly)
      .map((binding) =>
        issueAt(
          {
            sheet: this.name,
            row: binding.row,
            column: binding.letters,
            field: binding.kind === 'field' ? binding.path.text : '',
            label: binding.label,
          },
          'warning',
          'read-only-column',
          'this field is computed by the service: the values in this column are ignored',
        ),
      );
  }

  /** The streaming reader sees only the top-left cell of a merged range: say so where it matters. */
  private mergeIssues(firstDataRow: number): SheetIssue[] {
    return this.merges
      .filter((merge) => merge.bottom >= firstDataRow && (merge.bottom > merge.top || merge.right > merge.left))
      .map((merge) => {
        const letters = columnLetters(merge.left);
        const binding = this.context?.bindings.get(merge.left);
        const label = binding?.label ?? `column ${letters}`;
        const place = {
          sheet: this.name,
          row: Math.max(merge.top, firstDataRow),
          column: letters,
          field: binding?.kind === 'field' ? binding.path.text : '',
          label,
        };
        const topLeft = `${letters}${merge.top}`;
        return issueAt(
          place,
          'warning',
          'merged-cells',
          `cells ${merge.ref} are merged: only ${topLeft} is read and the other cells count as empty; unmerge them and fill in each cell`,
        );
      });
  }

  private dataRow(row: SheetRow): SheetEvent {
    const { row: parsed, issues } = readDataRow(this.context as RowContext, row.number, row.cells);
    return { type: 'row', row: parsed, issues };
  }
}
