/**
 * The workbook view's own shortcuts, as in Excel and LibreOffice where they have one: undo and
 * redo through the workbook's revisions, fill down, insert rows above and delete the selected
 * rows, find and replace. Everything else (moving, selecting, copying, editing on type) is the
 * grid's own.
 */
export type GridCommand = 'undo' | 'redo' | 'fill-down' | 'insert-rows' | 'delete-rows' | 'find-replace';

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export function gridCommandFor(event: KeyLike): GridCommand | undefined {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return undefined;
  const key = event.key.toLowerCase();
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && !event.shiftKey) return 'redo';
  if (key === 'd' && !event.shiftKey) return 'fill-down';
  // Ctrl+F as in every program, Ctrl+H as in Excel: the same bar, its Find box focused.
  if ((key === 'h' || key === 'f') && !event.shiftKey) return 'find-replace';
  // Ctrl+Shift+= on most layouts reads as '+'; Ctrl++ on the keypad as '+' without Shift.
  if (key === '+' || (key === '=' && event.shiftKey)) return 'insert-rows';
  if (key === '-' && !event.shiftKey) return 'delete-rows';
  return undefined;
}

/** True where a key belongs to the text being typed (a cell's editor, the find bar), not to the grid. */
export function typesText(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLElement && target.isContentEditable)
  );
}

/** The keys a command answers to: as shown in a button's title, and as `aria-keyshortcuts` spells them. */
export const COMMAND_KEYS: Record<GridCommand, { shown: string; aria: string }> = {
  undo: { shown: 'Ctrl+Z', aria: 'Control+Z' },
  redo: { shown: 'Ctrl+Shift+Z or Ctrl+Y', aria: 'Control+Shift+Z Control+Y' },
  'fill-down': { shown: 'Ctrl+D', aria: 'Control+D' },
  'insert-rows': { shown: 'Ctrl+Shift++', aria: 'Control+Shift+Plus' },
  'delete-rows': { shown: 'Ctrl+-', aria: 'Control+Minus' },
  'find-replace': { shown: 'Ctrl+F or Ctrl+H', aria: 'Control+F Control+H' },
};
