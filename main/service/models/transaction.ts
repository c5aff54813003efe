import { resourceActions } from './actions';
import { flag, integer, list, nullableText, object, oneOf, text } from './field-builders';
import type { ModelDef } from './types';

const ro = { readonly: true } as const;
const time = (title: string) => nullableText(title, { ...ro, description: 'ISO 8601 with microseconds, no zone.' });

export const transaction: ModelDef = {
  modelType: 'tool/Transaction',
  title: 'Transaction',
  description: 'A record of one change (create, modify, delete, bulk load): its status, steps log and sub-transactions.',
  schemaVersion: '0.2.2',
  fields: {
    transaction_id: text('Transaction ID', { ...ro, format: 'uuid' }),
    status: oneOf('Status', ['Queued', 'In Progress', 'Processing', 'Success', 'Fail', 'Success With Async Failures'], ro),
    rolled_back: oneOf('Rolled Back', ['Yes', 'No'], ro),
    action: text('Action', { ...ro, description: 'e.g. Create, Modify, Delete, Execute Bulk Load.' }),
    detail: text('Detail', ro),
    message: nullableText('Message', ro),
    username: text('Username', ro),
    model_type: text('Model Type', ro),
    priority: text('Priority', ro),
    submitted_time: time('Submitted'),
    started_time: time('Started'),
    completed_time: time('Completed'),
    parent_id: nullableText('Parent Transaction ID', ro),
    top_level: flag('Top Level', ro),
    resource: object(
      'Resource',
      {
        hierarchy: text('Hierarchy', ro),
        model_type: text('Model Type', ro),
        current_state: text('Current State', ro),
        pkid: text('Resource ID', ro),
      },
      ro,
    ),
    log: list(
      'Log',
      object('Log Entry', {
        severity: oneOf('Severity', ['error', 'warning', 'info', 'verbose', 'debug'], ro),
        format: text('Format', ro),
        log_id: text('Log ID', ro),
        href: text('Link', { ...ro, format: 'uri' }),
        time: text('Time', ro),
        message: text('Message', ro),
        transaction_id: text('Transaction ID', ro),
      }),
      { ...ro, description: 'Newest entry first.' },
    ),
    sub_transactions: list(
      'Sub-transactions',
      object('Sub-transaction', {
        transaction_id: text('Transaction ID', ro),
        href: text('Link', { ...ro, format: 'uri' }),
        status: text('Status', ro),
        action: text('Action', ro),
        detail: text('Detail', ro),
      }),
      { ...ro, description: 'The first 100 in row order; page through the rest with the list and parent_id.' },
    ),
    sub_transaction_counts: object(
      'Sub-transaction counts',
      { total: integer('Total', ro) },
      {
        ...ro,
        description: "Every sub-transaction counted: total, and one count per status present, by the status's name.",
      },
    ),
  },
  summaryAttrs: ['submitted_time', 'transaction_id', 'action', 'status', 'detail', 'model_type', 'username'],
  businessKey: { hierarchy: false, fields: ['transaction_id'] },
  actions: [
    ...resourceActions({ readOnly: true }).filter((action) => action.name !== 'export'),
    { name: 'poll', title: 'Poll', method: 'GET', path: '{pkid}/poll/', class: 'poll', supportAsync: false },
    { name: 'log', title: 'Log entry', method: 'GET', path: '{pkid}/log/', class: 'log', supportAsync: false },
  ],
  storage: 'service',
  workflow: 'generic',
};
