import { resourceActions } from './actions';
import { PHONE_NAME_PATTERN } from './cucm-phone';
import { PHONE_PRODUCTS } from './cucm-choices';
import { directoryNumber, oneOf, text } from './field-builders';
import type { ModelDef } from './types';

export const bundle: ModelDef = {
  modelType: 'relation/Bundle',
  title: 'Bundle',
  description: 'One step to set up a person: creates the subscriber, the phone and the line together.',
  schemaVersion: '0.2.2',
  fields: {
    userid: text('User ID', { required: true, names: true, maxLength: 128 }),
    firstname: text('First Name', { maxLength: 64 }),
    lastname: text('Last Name', { maxLength: 64 }),
    device_name: text('Device Name', {
      required: true,
      names: true,
      pattern: PHONE_NAME_PATTERN,
      maxLength: 15,
      description: 'Name of the phone to create, e.g. SEP001122334455.',
    }),
    product: oneOf('Product', PHONE_PRODUCTS, { maxLength: 100, description: 'Phone model, e.g. Cisco 8845.' }),
    pattern: directoryNumber('Directory Number', { required: true }),
    alertingName: text('Alerting Name', { maxLength: 50 }),
  },
  summaryAttrs: ['userid', 'device_name', 'pattern', 'firstname', 'lastname'],
  businessKey: { hierarchy: false, fields: ['userid'] },
  actions: resourceActions(),
  storage: 'instances',
  workflow: 'bundle',
};
