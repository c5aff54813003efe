import { resourceActions } from './actions';
import { text } from './field-builders';
import type { ModelDef } from './types';

export const macro: ModelDef = {
  modelType: 'data/Macro',
  title: 'Macro',
  description: 'A named text that {{ macro.<name> }} expands to in Configuration Templates, at its node and below.',
  schemaVersion: '0.2.2',
  fields: {
    // Referenced as `macro.<name>` inside `{{ }}`, so the name must read as one path segment.
    name: text('Name', {
      required: true,
      names: true,
      pattern: '^[A-Za-z_][A-Za-z0-9_-]*$',
      maxLength: 100,
      description: 'Letters, digits, _ or -, starting with a letter or _; used as {{ macro.<name> }}.',
    }),
    value: text('Value', {
      default: '',
      multiline: true,
      maxLength: 2000,
      description: 'The text the macro expands to; it may hold macros itself, e.g. {{ input.pattern }}.',
    }),
    description: text('Description', { maxLength: 200, multiline: true }),
  },
  summaryAttrs: ['name', 'value'],
  businessKey: { hierarchy: true, fields: ['name'] },
  actions: resourceActions(),
  storage: 'instances',
  workflow: 'generic',
};
