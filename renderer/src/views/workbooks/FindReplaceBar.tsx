import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useStores } from '../../store/stores';
import type { WorkbookEditPreview } from '../../../../main/service/contract/workbook-api';
import type { FindDirection, FindOptions } from '../../store/workbook-store';

const cells = (count: number): string => `${count.toLocaleString()} cell${count === 1 ? '' : 's'}`;

/** Replace all's question: how many cells, and the first changes as "row, column: before -> after". */
export function replaceQuestion(find: string, replacement: string, preview: WorkbookEditPreview): string {
  const lines = preview.first.map((change) => `Row ${change.row}, ${change.column}: “${change.before}” → “${change.after}”`);
  const more = preview.changed > preview.first.length ? `\n…and ${cells(preview.changed - preview.first.length)} more.` : '';
  return `Replace “${find}” with “${replacement}” in ${cells(preview.changed)}?\n\n${lines.join('\n')}${more}\n\nOne step: Undo takes it all back.`;
}

/**
 * Find and replace over the shown sheet (Ctrl+H): "Find next" (Enter) and "Find previous"
 * (Shift+Enter) move the grid's selection to the next or previous cell that matches, from the
 * top (or the bottom) when no cell is chosen, wrapping round; "Replace all" is one edit (one
 * undo). Escape closes it and gives the keys back to the grid.
 */
export function FindReplaceBar({
  findNext,
  onClose,
}: {
  findNext: (find: string, options: FindOptions, direction: FindDirection) => Promise<'found' | 'none' | 'failed'>;
  onClose: () => void;
}) {
  const { workbook, confirm } = useStores();
  const [find, setFind] = useState('');
  const [replacement, setReplacement] = useState('');
  const [matchCase, setMatchCase] = useState(false);
  const [regex, setRegex] = useState(false);
  const [said, setSaid] = useState('');
  const options: FindOptions = { matchCase, regex };

  const step = async (direction: FindDirection, event?: FormEvent): Promise<void> => {
    event?.preventDefault();
    if (find === '') return;
    const answer = await findNext(find, options, direction);
    // A refusal is shown by the view's notice, with the service's words: never as "no match".
    setSaid(answer === 'none' ? `No cell matches “${find}”.` : '');
  };
  const replaceAll = async (): Promise<void> => {
    if (find === '') return;
    // What it would change, asked before it changes anything: the count and the first changes.
    const preview = await workbook.getState().previewReplace(find, replacement, options);
    if (!preview) return;
    if (preview.changed === 0) {
      setSaid(`No cell matches “${find}”.`);
      return;
    }
    if (!(await confirm.getState().ask(replaceQuestion(find, replacement, preview), { label: 'Replace all', action: 'Replace all' })))
      return;
    const changed = await workbook.getState().replace(find, replacement, options);
    if (changed !== undefined) setSaid(`Replaced in ${cells(changed)}.`);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>): void => {
    if (event.key === 'Enter' && event.shiftKey) {
      event.preventDefault();
      void step('previous');
      return;
    }
    if (event.key !== 'Escape') return;
    event.preventDefault();
    onClose();
  };

  return (
    <form
      className="find-replace"
      role="search"
      aria-label="Find and replace"
      onSubmit={(event) => void step('next', event)}
      onKeyDown={onKeyDown}
    >
      <label>
        Find <input type="search" value={find} autoFocus onChange={(event) => setFind(event.target.value)} />
      </label>
      <label>
        Replace with <input type="text" value={replacement} onChange={(event) => setReplacement(event.target.value)} />
      </label>
      <label>
        <input type="checkbox" checked={matchCase} onChange={(event) => setMatchCase(event.target.checked)} /> Match case
      </label>
      <label>
        <input type="checkbox" checked={regex} onChange={(event) => setRegex(event.target.checked)} /> Regular expression
      </label>
      <button type="submit" disabled={find === ''} title="Enter">
        Find next
      </button>
      {/* After Replace all: the keys of the bar (Tab past Find next to Replace all) stay as they were. */}
      <button type="button" disabled={find === ''} onClick={() => void replaceAll()}>
        Replace all
      </button>
      <button type="button" disabled={find === ''} onClick={() => void step('previous')} title="Shift+Enter">
        Find previous
      </button>
      <button type="button" onClick={onClose} aria-label="Close find and replace">
        ×
      </button>
      <span className="muted" role="status" aria-live="polite">
        {said}
      </span>
    </form>
  );
}
