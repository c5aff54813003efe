import type { Choice, FieldDef } from './types';

/** Small builders so each model file reads like the field table it implements. */
type Extra = Omit<FieldDef, 'type' | 'title'>;

export const text = (title: string, extra: Extra = {}): FieldDef => ({ type: 'string', title, ...extra });

export const nullableText = (title: string, extra: Extra = {}): FieldDef => ({
  type: ['string', 'null'],
  title,
  ...extra,
});

export const flag = (title: string, extra: Extra = {}): FieldDef => ({ type: 'boolean', title, ...extra });

export const integer = (title: string, extra: Extra = {}): FieldDef => ({ type: 'integer', title, ...extra });

export const object = (title: string, properties: Record<string, FieldDef>, extra: Extra = {}): FieldDef => ({
  type: 'object',
  title,
  properties,
  ...extra,
});

export const list = (title: string, items: FieldDef, extra: Extra = {}): FieldDef => ({
  type: 'array',
  title,
  items,
  ...extra,
});

export const choices = (...values: string[]): Choice[] => values.map((value) => ({ value, title: value }));

export const oneOf = (title: string, values: string[], extra: Extra = {}): FieldDef => ({
  type: 'string',
  title,
  choices: choices(...values),
  ...extra,
});

/** Directory numbers: an optional `+`, then digits, `*`, `#`, `X` wildcards or a `\+` escape. */
export const DIRECTORY_NUMBER_PATTERN = '^(\\\\?\\+)?[0-9*#X]{1,24}$';

/** A directory number: text, never a number, so a leading + or 0 survives every door. */
export const directoryNumber = (title: string, extra: Extra = {}): FieldDef =>
  text(title, {
    format: 'directory-number',
    pattern: DIRECTORY_NUMBER_PATTERN,
    maxLength: 50,
    description: 'The number as dialled, e.g. +442071234567; text, so a leading + or 0 is kept.',
    ...extra,
  });

/** The first fields of a model that shapes another model (templates, display policies). */
export const targetedModelFields = (targetDescription: string): Record<string, FieldDef> => ({
  name: text('Name', { required: true, names: true, maxLength: 100 }),
  description: text('Description', { maxLength: 200, multiline: true }),
  target_model_type: text('Target Model Type', {
    required: true,
    pattern: '^[a-z]+(/[A-Za-z0-9]+)+$',
    maxLength: 100,
    description: targetDescription,
  }),
});
