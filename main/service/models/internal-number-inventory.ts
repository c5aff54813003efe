import { resourceActions } from './actions';
import { directoryNumber, nullableText, oneOf, text } from './field-builders';
import type { ModelDef } from './types';

export const internalNumberInventory: ModelDef = {
  modelType: 'data/InternalNumberInventory',
  title: 'Internal Number Inventory',
  description: 'A directory number held in stock at a hierarchy node, and whether it is free to use.',
  schemaVersion: '0.2.2',
  fields: {
    internal_number: directoryNumber('Internal Number', { required: true }),
    status: oneOf('Status', ['Available', 'Used', 'Used-Utility', 'Reserved', 'Cooling'], {
      default: 'Available',
      description: 'Only an Available number can be given to a new line.',
    }),
    usage: text('Usage', { maxLength: 100, description: 'What the number is used for, e.g. Device or the line it is on.' }),
    description: text('Description', { maxLength: 200, multiline: true }),
    release_date: nullableText('Release Date', {
      format: 'date',
      description: 'When a Cooling number becomes Available again (YYYY-MM-DD).',
    }),
  },
  summaryAttrs: ['internal_number', 'status', 'usage', 'description'],
  businessKey: { hierarchy: true, scope: 'up', fields: ['internal_number'] },
  actions: resourceActions(),
  storage: 'instances',
  workflow: 'generic',
};
