import { isEmptyValue } from './form-values';
import { getAt } from './schema-paths';

/**
 * What a Configuration Template's text will make, shown to the engineer in place of the macro
 * (`{{ input.alertingName }} line` reads "Zoe Lambert line"). Only references to the form's own
 * fields are worked out here, from the values typed so far; functions, `self`, `item` and
 * Macros are the service's to evaluate on save, and the preview says so rather than guessing.
 */
export type FillPreview =
  /** The value the template makes from what the form holds now (a literal text is its own value). */
  | { kind: 'value'; text: string }
  /** Fields it reads are still empty: the text with each of them as ‹its title›. */
  | { kind: 'waiting'; text: string; missing: string[] }
  /** Worked out by the service on save (a function, another field the template sets, a Macro). */
  | { kind: 'on-save' };

const MACRO = /\{\{([^}]*)\}\}/g;
const INPUT_REF = /^input((?:\.[A-Za-z0-9_-]+)+)$/;

export function previewFill(text: string, values: unknown, titleOf: (path: string) => string): FillPreview {
  if (!text.includes('{{')) return { kind: 'value', text };
  const missing: string[] = [];
  let computable = true;
  const made = text.replace(MACRO, (_whole, inner: string) => {
    const ref = INPUT_REF.exec(inner.trim());
    if (!ref) {
      computable = false;
      return '';
    }
    const path = ref[1].slice(1);
    const value = getAt(values, path);
    if (isEmptyValue(value)) {
      missing.push(titleOf(path));
      return `‹${titleOf(path)}›`;
    }
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
  if (!computable) return { kind: 'on-save' };
  return missing.length > 0 ? { kind: 'waiting', text: made, missing } : { kind: 'value', text: made };
}

/** The preview in a field's grey placeholder: short, the fields still to type as ‹their titles›. */
export function placeholderOf(preview: FillPreview): string {
  return preview.kind === 'on-save' ? 'Set by the template on save' : preview.text;
}

/** What a waiting preview still needs, as a sentence's end: "once Alerting Name is filled". */
export function waitingFor(missing: string[]): string {
  const names = [...new Set(missing)];
  return `once ${names.join(' and ')} ${names.length === 1 ? 'is' : 'are'} filled`;
}
