import { FindReplaceBar } from './FindReplaceBar';
import { COMMAND_KEYS, type GridCommand } from './grid-keys';
import { selectedRows, type GridEditing } from './use-grid-editing';
import type { GridSelection } from '@glideapps/glide-data-grid';

const BUTTONS: { command: GridCommand; label: string }[] = [
  { command: 'insert-rows', label: 'Insert rows' },
  { command: 'delete-rows', label: 'Delete rows' },
  { command: 'fill-down', label: 'Fill down' },
  { command: 'find-replace', label: 'Find & replace' },
];

/** The grid's edit buttons, each naming its shortcut, and the find and replace bar when open. */
export function GridEditBar({ editing, selection }: { editing: GridEditing; selection: GridSelection | undefined }) {
  const rows = selectedRows(selection);
  const range = selection?.current?.range;
  const enabled = (command: GridCommand): boolean => {
    if (command === 'find-replace') return true;
    if (!editing.editable) return false;
    if (command === 'delete-rows') return rows !== undefined;
    if (command === 'fill-down') return range !== undefined && range.height > 1;
    return true;
  };
  return (
    <>
      <div className="grid-edit-bar" role="toolbar" aria-label="Edit rows">
        {BUTTONS.map(({ command, label }) => (
          <button
            key={command}
            type="button"
            disabled={!enabled(command)}
            title={`${label} (${COMMAND_KEYS[command].shown})`}
            aria-keyshortcuts={COMMAND_KEYS[command].aria}
            onClick={() => editing.run(command)}
          >
            {label}
          </button>
        ))}
      </div>
      {editing.finding && <FindReplaceBar findNext={editing.findNext} onClose={editing.closeFind} />}
    </>
  );
}
