import {
  drawTextCell,
  getMiddleCenterBias,
  GridCellKind,
  type CustomCell,
  type CustomRenderer,
  type GridCell,
  type ProvideEditorComponent,
} from '@glideapps/glide-data-grid';
import { useEffect, useRef } from 'react';
import type { WorkbookColumn } from '../../../../main/service/contract/workbook-api';

/**
 * A cell of a column with choices (the field's enum, or add/modify/delete for Action): drawn as
 * its text with a drop-down mark, edited in a native <select> so the arrow keys, typing a
 * choice's first letter, Enter and Escape work as in any form. A value outside the choices (as
 * read from a file) stays shown and selectable, so opening the editor never changes a cell.
 */
export interface ChoiceData {
  readonly kind: 'choice-cell';
  readonly value: string;
  readonly choices: readonly string[];
}

export type ChoiceCell = CustomCell<ChoiceData>;

type CellLook = Pick<GridCell, 'themeOverride'> & { readonly: boolean };

/** The grid cell for a workbook cell's text: a choice cell where its column has choices, plain text elsewhere. */
export function gridCellFor(column: WorkbookColumn, text: string, look: CellLook): GridCell {
  if (column.choices && column.choices.length > 0) {
    return {
      kind: GridCellKind.Custom,
      data: { kind: 'choice-cell', value: text, choices: column.choices },
      copyData: text,
      allowOverlay: true,
      ...look,
    };
  }
  return { kind: GridCellKind.Text, data: text, displayData: text, allowOverlay: true, ...look };
}

/** The text an edited grid cell holds, or undefined for a cell the workbook grid never makes. */
export function editedText(cell: GridCell): string | undefined {
  if (cell.kind === GridCellKind.Text) return cell.data;
  if (cell.kind === GridCellKind.Custom && isChoiceCell(cell)) return cell.data.value;
  return undefined;
}

function isChoiceCell(cell: CustomCell): cell is ChoiceCell {
  return (cell.data as Partial<ChoiceData>).kind === 'choice-cell';
}

const withValue = (cell: ChoiceCell, value: string): ChoiceCell => ({ ...cell, copyData: value, data: { ...cell.data, value } });

const ChoiceEditor: ProvideEditorComponent<ChoiceCell> = ({ value: cell, onChange, initialValue }) => {
  const select = useRef<HTMLSelectElement>(null);
  const { value, choices } = cell.data;
  const options = choices.includes(value) || value === '' ? choices : [value, ...choices];
  useEffect(() => {
    select.current?.focus();
    // Typing a letter on the cell opened the editor: go to the first choice it starts.
    if (initialValue) {
      const typed = choices.find((choice) => choice.toLowerCase().startsWith(initialValue.toLowerCase()));
      if (typed !== undefined) onChange(withValue(cell, typed));
    }
    // Once, on opening: later changes come from the select itself.
  }, []);
  return (
    <select
      ref={select}
      className="choice-editor"
      aria-label="Choice"
      value={value}
      onChange={(event) => onChange(withValue(cell, event.target.value))}
    >
      <option value="">(empty)</option>
      {options.map((choice) => (
        <option key={choice} value={choice}>
          {choice}
        </option>
      ))}
    </select>
  );
};

export const choiceCellRenderer: CustomRenderer<ChoiceCell> = {
  kind: GridCellKind.Custom,
  isMatch: isChoiceCell,
  draw: (args, cell) => {
    const { ctx, rect, theme } = args;
    drawTextCell(args, cell.data.value, cell.contentAlign);
    ctx.fillStyle = theme.textLight;
    ctx.fillText('▾', rect.x + rect.width - theme.cellHorizontalPadding - 8, rect.y + rect.height / 2 + getMiddleCenterBias(ctx, theme));
    return true;
  },
  provideEditor: () => ({ editor: ChoiceEditor, deletedValue: (cell) => withValue(cell, '') }),
  onPaste: (value, data) => ({ ...data, value }),
};
