import { resourceActions } from './actions';
import { flag, text } from './field-builders';
import type { ActionDef, ModelDef } from './types';

const help = resourceActions({ readOnly: true }).filter((action) => action.name === 'help');

const actions: ActionDef[] = [
  {
    name: 'bulkload_spreadsheet',
    title: 'Bulk Load',
    method: 'POST',
    path: '?method=bulkload_spreadsheet',
    class: 'bulkload_spreadsheet',
    supportAsync: true,
  },
  { name: 'validate', title: 'Validate', method: 'POST', path: '?method=validate', class: 'validate', supportAsync: false },
  ...help,
];

export const bulkLoad: ModelDef = {
  modelType: 'tool/BulkLoad',
  title: 'Bulk Load',
  description: 'Loads an uploaded spreadsheet: one transaction per row, now or at a scheduled time.',
  schemaVersion: '0.2.2',
  fields: {
    bulkload_file: text('Bulk Load File', {
      required: true,
      maxLength: 255,
      description: 'Name of a file uploaded through /api/uploadfiles/.',
    }),
    execute_immediately: flag('Execute Immediately', { default: true }),
    execute_date: text('Execute Date', {
      format: 'date',
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      description: 'YYYY-MM-DD; needed when not executing immediately.',
    }),
    execute_time: text('Execute Time', {
      format: 'time',
      pattern: '^\\d{2}:\\d{2}:\\d{2}$',
      description: 'HH:MM:SS; needed when not executing immediately.',
    }),
    execute_timezone: text('Execute Time Zone', { description: 'Offset from UTC in minutes, e.g. 60 or -300.' }),
  },
  summaryAttrs: ['bulkload_file'],
  businessKey: { hierarchy: false, fields: ['bulkload_file'] },
  actions,
  storage: 'service',
  workflow: 'generic',
};
