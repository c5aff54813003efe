import { useEffect, useState, type KeyboardEvent } from 'react';
import type { WorkbookSheet } from '../../../../main/service/contract/workbook-api';
import { useStores } from '../../store/stores';

/**
 * The directive of a directive-layout sheet (cell A1: entity, hierarchy, template), edited in
 * place: Enter or leaving the field makes it one edit of the workbook, Escape puts it back.
 */
export function DirectiveBanner({ sheet }: { sheet: WorkbookSheet }) {
  const { workbook } = useStores();
  const saved = sheet.directive ?? '';
  const [text, setText] = useState(saved);
  useEffect(() => setText(saved), [saved]);

  const commit = (): void => {
    if (text.trim() !== saved.trim()) void workbook.getState().setDirective(text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setText(saved);
    }
  };

  return (
    <label className="directive-banner">
      <span className="directive-label">Directive</span>
      <input
        type="text"
        value={text}
        readOnly={sheet.skipped}
        spellCheck={false}
        title="Cell A1 of the sheet: the model, the hierarchy and the template its rows load with"
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={onKeyDown}
      />
    </label>
  );
}
