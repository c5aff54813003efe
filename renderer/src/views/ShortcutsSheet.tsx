import { useEffect, useState } from 'react';
import { COMMAND_KEYS, typesText } from './workbooks/grid-keys';

/**
 * The keys of the app on one sheet (issue 32, point 7): `?` anywhere but in a text box or the
 * grid (where it is typed, as in Excel) opens it, Escape or Close shuts it and gives the keys back. The grid's commands are read from the
 * table their buttons' titles come from, so the sheet never says other keys than the grid takes.
 */
const SECTIONS: { title: string; keys: [string, string][] }[] = [
  {
    title: 'Everywhere',
    keys: [
      ['?', 'This sheet of keys (outside the grid and text boxes: there ? is typed)'],
      ['Escape', 'Close a dialog or a bar, cancel a cell being typed'],
      ['Tab, Shift+Tab', 'Next or previous control'],
    ],
  },
  {
    title: 'Workbook grid',
    keys: [
      ['Arrows', 'Move the chosen cell'],
      ['Enter', 'Edit the chosen cell; Enter again keeps the value'],
      ['Ctrl+C, Ctrl+V', 'Copy cells, paste a block from Excel or LibreOffice'],
      [COMMAND_KEYS.undo.shown, 'Undo'],
      [COMMAND_KEYS.redo.shown, 'Redo'],
      [COMMAND_KEYS['fill-down'].shown, 'Fill down'],
      [COMMAND_KEYS['insert-rows'].shown, 'Insert rows above the selection'],
      [COMMAND_KEYS['delete-rows'].shown, 'Delete the selected rows'],
      [COMMAND_KEYS['find-replace'].shown, 'Find and replace'],
      ['Enter, Shift+Enter', 'In Find: next and previous match'],
      ['F8, Shift+F8', 'Next and previous error'],
      ['Ctrl+. or Alt+Enter', 'Apply the suggested fix of the chosen cell'],
    ],
  },
];

export function ShortcutsSheet() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const inGrid = event.target instanceof Element && event.target.closest('.workbook-grid') !== null;
      if (event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey && !typesText(event.target) && !inGrid) {
        event.preventDefault();
        setOpen(true);
      } else if (event.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (!open) return null;
  return (
    <div className="live-confirm-backdrop" onClick={() => setOpen(false)}>
      <div
        className="live-confirm shortcuts-sheet"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        onClick={(event) => event.stopPropagation()}
      >
        <h2>Keyboard shortcuts</h2>
        {SECTIONS.map((section) => (
          <section key={section.title} aria-label={section.title}>
            <h3>{section.title}</h3>
            <table className="shortcuts">
              <tbody>
                {section.keys.map(([keys, what]) => (
                  <tr key={keys}>
                    <th scope="row">
                      <kbd>{keys}</kbd>
                    </th>
                    <td>{what}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
        <div className="toolbar">
          <button type="button" autoFocus onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
