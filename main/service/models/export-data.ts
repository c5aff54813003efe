import { resourceActions } from './actions';
import { flag, text } from './field-builders';
import type { ModelDef } from './types';

export const exportData: ModelDef = {
  modelType: 'view/ExportData',
  title: 'Export Data',
  description: 'Exports a search result as a spreadsheet or JSON; add/ lists the export formats.',
  schemaVersion: '0.2.2',
  fields: {
    export_data_type: {
      type: 'string',
      title: 'Export Format',
      required: true,
      default: 'formatted',
      choices: [
        { value: 'formatted', title: 'Formatted (xlsx, titles)' },
        { value: 'raw', title: 'Raw (xlsx, field names)' },
        { value: 'json', title: 'JSON' },
      ],
    },
    query: text('Query', { maxLength: 2000, description: 'Search query whose result is exported.' }),
    hierarchy_paths: flag('Search Up the Hierarchy', { default: false }),
  },
  summaryAttrs: ['export_data_type'],
  businessKey: { hierarchy: false, fields: ['export_data_type'] },
  actions: [
    { name: 'add', title: 'Add', method: 'GET', path: 'add/', class: 'add', supportAsync: false },
    {
      name: 'export',
      title: 'Export',
      method: 'POST',
      path: '/api/export/export_data/?url=/api/tool/Search/',
      class: 'export',
      supportAsync: true,
    },
    ...resourceActions({ readOnly: true }).filter((action) => action.name === 'help'),
  ],
  storage: 'service',
  workflow: 'generic',
};
