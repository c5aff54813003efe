import { useMemo } from 'react';
import type { SchemaProperty } from '../../../../main/service/contract/resource-api';
import { useSlice } from '../../store/stores';
import { fieldId } from './field-parts';
import { propertyAt } from './schema-paths';
import { orderedErrors } from './validate';

/**
 * Every field message at the top of the form, each a button that takes the user to its field;
 * fields the form does not show (hidden by the policy) are listed as plain text.
 */
export function ErrorSummary({ schema, onShowField }: { schema: SchemaProperty; onShowField: (path: string) => void }) {
  const errors = useSlice('form', (s) => s.errors);
  const attempted = useSlice('form', (s) => s.attempted);
  const entries = useMemo(() => orderedErrors(errors, schema), [errors, schema]);
  if (!attempted || entries.length === 0) return null;
  return (
    <div className="error-summary" role="alert" data-testid="form-errors">
      <strong>
        Fix {entries.length} field{entries.length === 1 ? '' : 's'} before saving:
      </strong>
      <ul>
        {entries.map(([path, message]) => (
          <li key={path}>
            {path.includes('.') && <span className="error-context">{contextOf(schema, path)}: </span>}
            <button type="button" className="link" onClick={() => onShowField(path)}>
              {message}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Focuses a field's input (or its fieldset) after its tab is shown. */
export function focusField(path: string): void {
  const element = document.getElementById(fieldId(path));
  if (!element) return;
  element.scrollIntoView?.({ block: 'center' });
  const target = element instanceof HTMLFieldSetElement ? element.querySelector<HTMLElement>('input, select, textarea, button') : element;
  target?.focus();
}

/** Where a nested field sits, in the form's words: "Lines › row 2", "Call Forward All". */
function contextOf(schema: SchemaProperty, path: string): string {
  const segments = path.split('.').slice(0, -1);
  return segments
    .map((segment, i) =>
      /^\d+$/.test(segment) ? `row ${Number(segment) + 1}` : (propertyAt(schema, segments.slice(0, i + 1).join('.'))?.title ?? segment),
    )
    .join(' › ');
}
