import { useSlice } from '../../store/stores';
import { isEmptyValue } from './form-values';
import { previewFill, waitingFor, type FillPreview } from './macro-preview';
import { getAt, propertyAt } from './schema-paths';

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
    <span className="template-badge" title={`Template text: ${text}`}>
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
  const preview = useFillPreview(text);
  return { text, preview, byTemplate: text !== undefined && empty };
}

export interface TemplateFillView {
  /** The template's own text, a macro or a literal. */
  text?: string;
  /** What that text makes from the form's values: what the engineer is shown. */
  preview?: FillPreview;
  byTemplate: boolean;
}

/** A template text's preview from the form's current values, fields named by their titles. */
export function useFillPreview(text: string | undefined): FillPreview | undefined {
  const values = useSlice('form', (s) => s.values);
  const schema = useSlice('form', (s) => s.schema);
  if (text === undefined) return undefined;
  return previewFill(text, values, (path) => (schema && propertyAt(schema, path)?.title) || path);
}

/** Whether a template's text is a macro, computed on save, rather than a literal value. */
export function isMacro(text: string): boolean {
  return text.includes('{{');
}

/**
 * Under a filled field: that the user's value replaces the template's, or the template's text
 * when the input cannot show it as a placeholder (`showText`).
 */
export function TemplateNote({ text, preview, byTemplate, showText }: TemplateFillView & { showText?: boolean }) {
  if (text === undefined || !preview) return null;
  if (!byTemplate) return <p className="field-template">Your value replaces the template’s.</p>;
  if (!showText) return null;
  return (
    <p className="field-template" title={`Template text: ${text}`}>
      The template gives <PreviewValue preview={preview} />
    </p>
  );
}

/** The value a template makes, quoted; or what it waits for; or that the service works it out on save. */
export function PreviewValue({ preview }: { preview: FillPreview }) {
  if (preview.kind === 'on-save') return <span>a value worked out on save</span>;
  return (
    <>
      <q className="template-value">{preview.text}</q>
      {preview.kind === 'waiting' && ` ${waitingFor(preview.missing)}`}
    </>
  );
}
