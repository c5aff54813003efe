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
