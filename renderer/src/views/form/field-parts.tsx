import { useSlice } from '../../store/stores';
import { getAt, sameJson } from './schema-paths';

/** The element id of a field's input, also used by the error summary to focus it. */
export function fieldId(path: string): string {
  return `field-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/** Help text under the input, then the field's message when it has one. */
export function FieldNotes({ id, help, error }: { id: string; help?: string; error?: string }) {
  return (
    <>
      {help && (
        <p className="field-help" id={`${id}-help`}>
          {help}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </>
  );
}

/** Marks a field the picked Configuration Template fills; its title shows the template's text. */
export function TemplateBadge({ path }: { path: string }) {
  const text = useSlice('form', (s) => s.fillByPath[path]);
  if (text === undefined) return null;
  return (
    <span className="template-badge" title={`Template value: ${text}`}>
      from template
    </span>
  );
}

/**
 * The picked template's text for a field, and whether the user has left the field as it started
 * (then the template's value is the one saved).
 */
export function useTemplateFill(path: string): { text?: string; untouched: boolean } {
  const text = useSlice('form', (s) => s.fillByPath[path]);
  const untouched = useSlice('form', (s) => sameJson(getAt(s.values, path), getAt(s.initial, path)));
  return { text, untouched };
}

/** Under a filled field: what the template gives, or that the user's value replaces it. */
export function TemplateNote({ text, untouched }: { text?: string; untouched: boolean }) {
  if (text === undefined) return null;
  return untouched ? (
    <p className="field-template">
      Template gives <code className="macro">{text}</code>
    </p>
  ) : (
    <p className="field-template">Your value replaces the template’s.</p>
  );
}
