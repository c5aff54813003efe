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
      description:
        'The caller always wins. merge: template values are deep-merged under the payload; replace: per top-level field, no nested merge.',
    }),
    template: {
      type: 'object',
      title: 'Template',
      default: {},
      description: 'Free-form field values and macros, keyed by field name of the target model.',
    },
    foreach: nullableText('For Each', {
      maxLength: 100,
      description:
        'Name of an input list: entries ending in [] and __foreach__ blocks are built once per element ({{ item }}, {{ index }}).',
    }),
  },
  summaryAttrs: ['name', 'target_model_type', 'description'],
  // One name per target model: a `default` for LineRelation and one for Phone may share a node.
  businessKey: { hierarchy: true, fields: ['name', 'target_model_type'] },
  actions: resourceActions(),
  storage: 'instances',
  workflow: 'generic',
};
