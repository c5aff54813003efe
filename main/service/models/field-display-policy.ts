import { resourceActions } from './actions';
import { flag, list, object, targetedModelFields, text } from './field-builders';
import type { ModelDef } from './types';

export const fieldDisplayPolicy: ModelDef = {
  modelType: 'data/FieldDisplayPolicy',
  title: 'Field Display Policy',
  description: 'How the form of one model type is laid out: field groups, and per-field titles, help, hiding and defaults.',
  schemaVersion: '0.2.2',
  fields: {
    ...targetedModelFields('The model whose form the policy shapes, e.g. relation/LineRelation.'),
    groups: list(
      'Groups',
      object('Group', {
        title: text('Group Title', { maxLength: 100 }),
        fields: list('Fields', text('Field', { maxLength: 200 }), {
          description: 'Field names shown in this group, in order.',
        }),
      }),
      { default: [] },
    ),
    field_overrides: list(
      'Field Overrides',
      object('Field Override', {
        field: text('Field', { required: true, maxLength: 200, description: 'Field name, dot notation for nested fields.' }),
        title: text('Title', { maxLength: 200 }),
        help_text: text('Help Text', { multiline: true }),
        hidden: flag('Hidden', { default: false }),
        readonly: flag('Read Only', { default: false }),
        input_type: text('Input Type', { maxLength: 50, description: 'Form widget, e.g. text, textarea, select.' }),
        default: { type: ['string', 'number', 'boolean', 'null'], title: 'Default Value' },
      }),
      { default: [] },
    ),
  },
  summaryAttrs: ['name', 'target_model_type', 'description'],
  // One name per target model: a `default` for LineRelation and one for Phone may share a node.
  businessKey: { hierarchy: true, fields: ['name', 'target_model_type'] },
  actions: resourceActions(),
  storage: 'instances',
  workflow: 'generic',
};
