import { resourceActions } from './actions';
import { text } from './field-builders';
import type { ModelDef } from './types';

export const generalHelp: ModelDef = {
  modelType: 'data/GeneralHelp',
  title: 'General Help',
  description: 'A help text, optionally about one model type, shown to users at and below its hierarchy node.',
  schemaVersion: '0.2.2',
  fields: {
    name: text('Name', { required: true, maxLength: 100 }),
    title: text('Title', { maxLength: 200 }),
    model_type: text('Model Type', {
      maxLength: 100,
      description: 'The model the help is about, e.g. relation/LineRelation; empty for general help.',
    }),
    body: text('Help Text', { description: 'The help text shown to users.' }),
  },
  summaryAttrs: ['name', 'title', 'model_type'],
  businessKey: { hierarchy: true, fields: ['name'] },
  actions: resourceActions(),
  storage: 'instances',
  workflow: 'generic',
};
