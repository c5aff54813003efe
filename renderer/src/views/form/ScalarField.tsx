import type { ChangeEvent } from 'react';
import type { SchemaProperty } from '../../../../main/service/contract/resource-api';
import { useSlice, useStores } from '../../store/stores';
import { inputText } from './coerce';
import { FieldNotes, TemplateBadge, TemplateNote, fieldId, isMacro, useTemplateFill } from './field-parts';
import { placeholderOf } from './macro-preview';
import { getAt, kindOf } from './schema-paths';

/** Input types a policy's `input_type` may ask for; anything else stays a text box. */
const INPUT_TYPES = new Set(['text', 'password', 'email', 'date', 'time', 'tel', 'url', 'number']);

/** One value: a text box, a select for choices, a checkbox for booleans, a text area for JSON. */
export function ScalarField({ path, property, label }: { path: string; property: SchemaProperty; label?: string }) {
  const { form } = useStores();
  const value = useSlice('form', (s) => getAt(s.values, path));
  const error = useSlice('form', (s) => s.errors[path]);
  const fill = useTemplateFill(path);
  const id = fieldId(path);
  const title = label ?? property.title ?? path;
  const describedBy = [property.description ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: path,
    disabled: property.readonly,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': property.required || undefined,
  };
  const change = (next: unknown): void => form.getState().setValue(path, next);

  if (kindOf(property) === 'boolean') {
    // Left to a template, the box shows the template's literal value: that is what is saved.
    const preset = fill.byTemplate && !isMacro(fill.text ?? '') ? fill.text === 'true' : undefined;
    const checked = preset ?? (value === undefined || value === null ? property.default === true : value === true);
    return (
      <div className={`form-field form-check${error ? ' has-error' : ''}`}>
        <div className="check-row">
          <input type="checkbox" {...common} checked={checked} onChange={(e) => change(e.target.checked)} />
          <label htmlFor={id}>
            {title}
            <TemplateBadge path={path} />
          </label>
        </div>
        <TemplateNote {...fill} showText={isMacro(fill.text ?? '')} />
        <FieldNotes id={id} help={property.description} error={error} />
      </div>
    );
  }
  return (
    <div className={`form-field${error ? ' has-error' : ''}${property.readonly ? ' is-readonly' : ''}`}>
      <label htmlFor={id}>
        {title}
        {property.required && !property.readonly && (
          <span className="required-mark" aria-hidden="true">
            {' '}
            *
          </span>
        )}
        <TemplateBadge path={path} />
      </label>
      {/* Left to a template, the field is empty and shows in grey the value the template makes from the fields typed so far. */}
      {widget(
        property,
        { ...common, placeholder: fill.byTemplate && fill.preview ? placeholderOf(fill.preview) : undefined },
        value,
        change,
      )}
      <TemplateNote {...fill} />
      <FieldNotes id={id} help={property.description} error={error} />
    </div>
  );
}

type Common = { id: string; name: string; disabled?: boolean; placeholder?: string };

function widget(property: SchemaProperty, { placeholder, ...common }: Common, value: unknown, change: (next: unknown) => void) {
  const text = inputText(value);
  const onText = (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => change(e.target.value);
  const kind = kindOf(property);
  if (kind === 'choice') {
    const choices = property.choices ?? [];
    // A stored value the schema no longer offers is still shown, so an edit does not silently change it.
    const unknown = text !== '' && !choices.some((choice) => choice.value === text);
    return (
      <select {...common} value={text} onChange={onText}>
        <option value="">
          {placeholder !== undefined ? `From template: ${titleOfChoice(choices, placeholder)}` : property.required ? 'Choose…' : '—'}
        </option>
        {unknown && <option value={text}>{text}</option>}
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.title}
          </option>
        ))}
      </select>
    );
  }
  if (kind === 'json' || property.input_type === 'textarea') {
    return (
      <textarea
        {...common}
        placeholder={placeholder}
        rows={kind === 'json' ? 6 : 3}
        value={text}
        onChange={onText}
        spellCheck={false}
        className={kind === 'json' ? 'mono' : undefined}
      />
    );
  }
  return (
    <input
      {...common}
      placeholder={placeholder}
      type={inputType(property)}
      inputMode={kind === 'number' ? 'numeric' : undefined}
      value={text}
      onChange={onText}
      autoComplete={property.format === 'password' ? 'new-password' : 'off'}
    />
  );
}

function inputType(property: SchemaProperty): string {
  if (property.format === 'password' || property.input_type === 'password') return 'password';
  if (property.input_type && INPUT_TYPES.has(property.input_type)) return property.input_type;
  if (property.format === 'email') return 'email';
  if (property.format === 'date') return 'date';
  return 'text';
}

/** A choice's title for a template's literal value; a macro or unknown value as written. */
function titleOfChoice(choices: { value: string; title: string }[], text: string): string {
  return choices.find((choice) => choice.value === text)?.title ?? text;
}
