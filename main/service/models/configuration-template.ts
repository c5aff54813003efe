import { resourceActions } from './actions';
import { nullableText, oneOf, targetedModelFields } from './field-builders';
import type { ModelDef } from './types';

export const configurationTemplate: ModelDef = {
  modelType: 'data/ConfigurationTemplate',
  title: 'Configuration Template',
  description: 'Field values and macros merged into a POST payload for one model type (the template parameter).',
  schemaVersion: '0.2.2',
  fields: {
    ...targetedModelFields('The model the template fills in, e.g. relation/LineRelation.'),
    merge_strategy: oneOf('Merge Strategy', ['merge', 'replace'], {
      default: 'merge',
      description: 'merge: payload values win over template values; replace: template values win.',
    }),
    template: {
      type: 'object',
      title: 'Template',
      default: {},
      description: 'Free-form field values and macros, keyed by field name of the target model.',
    },
    foreach: nullableText('For Each', {
      maxLength: 100,
      description: 'Name of an input array field; the template is applied once per element.',
    }),
  },
  summaryAttrs: ['name', 'target_model_type', 'description'],
  businessKey: { hierarchy: true, fields: ['name'] },
  actions: resourceActions(),
  storage: 'instances',
  workflow: 'generic',
};
