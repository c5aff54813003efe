import { resourceActions } from './actions';
import { flag, text } from './field-builders';
import type { ModelDef } from './types';

export const search: ModelDef = {
  modelType: 'tool/Search',
  title: 'Search',
  description: 'Finds resources across models: `<type>/<name> with <field> <op> <text>`, or a bare text.',
  schemaVersion: '0.2.2',
  fields: {
    query: text('Query', {
      required: true,
      maxLength: 2000,
      description: 'e.g. relation/LineRelation with pattern startswith +4420; a bare text searches summaries.',
    }),
    hierarchy_paths: flag('Search Up the Hierarchy', { default: false }),
    hierarchy_shallow: flag('Search This Node Only', { default: false }),
    hierarchy_all: flag('Search Up and Down', { default: false }),
  },
  summaryAttrs: ['query'],
  businessKey: { hierarchy: false, fields: ['query'] },
  actions: [
    { name: 'search', title: 'Search', method: 'GET', path: '', class: 'search', supportAsync: false },
    { name: 'search_post', title: 'Search (POST)', method: 'POST', path: '', class: 'search_post', supportAsync: false },
    ...resourceActions({ readOnly: true }).filter((action) => action.name === 'help'),
  ],
  storage: 'service',
  workflow: 'generic',
};
