import { useSlice } from '../../store/stores';
import { isEmptyValue } from './form-values';
import { getAt } from './schema-paths';

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
 * The picked template's text for a field, and whether the template gives the saved value: the
 * field holds nothing (the store empties a filled field the user has not changed), so the input
 * shows the template's text as its placeholder and nothing of the field is sent.
 */
export function useTemplateFill(path: string): TemplateFillView {
  const text = useSlice('form', (s) => s.fillByPath[path]);
  const empty = useSlice('form', (s) => isEmptyValue(getAt(s.values, path)));
  return { text, byTemplate: text !== undefined && empty };
}

export interface TemplateFillView {
  text?: string;
  byTemplate: boolean;
}

/** Whether a template's text is a macro, computed on save, rather than a literal value. */
export function isMacro(text: string): boolean {
  return text.includes('{{');
}

/**
 * Under a filled field: that the user's value replaces the template's, or the template's text
 * when the input cannot show it as a placeholder (`showText`).
 */
export function TemplateNote({ text, byTemplate, showText }: TemplateFillView & { showText?: boolean }) {
  if (text === undefined) return null;
  if (!byTemplate) return <p className="field-template">Your value replaces the template’s.</p>;
  if (!showText) return null;
  return (
    <p className="field-template">
      Template gives <code className="macro">{text}</code>
    </p>
  );
}
