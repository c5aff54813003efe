import { useState, type KeyboardEvent } from 'react';
import { useSlice, useStores } from '../../store/stores';

/**
 * Find in the viewed file: Enter finds (again: the next match), Shift+Enter the previous one.
 * Every match is tinted in the grid and the grid moves to each in turn, across sheets.
 */
export function FindBox() {
  const { viewer } = useStores();
  const find = useSlice('viewer', (s) => s.find);
  const [text, setText] = useState('');
  const stale = find?.text !== text;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (stale) void viewer.getState().search(text);
    else viewer.getState().step(event.shiftKey ? -1 : 1);
  };
  const status =
    find && !stale
      ? find.total === 0
        ? 'no match'
        : `${find.at + 1} of ${find.total.toLocaleString()}${find.total > find.matches.length ? ` (first ${find.matches.length.toLocaleString()} shown)` : ''}`
      : '';
  return (
    <span className="viewer-find" role="search" aria-label="Find in the export">
      <input
        type="search"
        aria-label="Find"
        placeholder="Find"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <button
        type="button"
        disabled={text.trim() === ''}
        onClick={() => (stale ? void viewer.getState().search(text) : viewer.getState().step(1))}
      >
        {stale ? 'Find' : 'Next'}
      </button>
      <button
        type="button"
        aria-label="Previous match"
        disabled={stale || !find?.matches.length}
        onClick={() => viewer.getState().step(-1)}
      >
        ‹
      </button>
      <span className="muted" aria-live="polite" data-testid="viewer-find-status">
        {status}
      </span>
    </span>
  );
}
