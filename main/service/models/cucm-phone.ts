import { resourceActions } from './actions';
import { PHONE_PRODUCTS, PHONE_PROTOCOLS } from './cucm-choices';
import { directoryNumber, list, object, oneOf, text } from './field-builders';
import type { ModelDef } from './types';

/** A phone (device) name as the call manager accepts it, e.g. SEP001122334455. */
export const PHONE_NAME_PATTERN = '^[A-Za-z0-9]{1,15}$';

export const cucmPhone: ModelDef = {
  modelType: 'device/cucm/Phone',
  title: 'Phone',
  description: 'A phone as the call manager holds it: its device name, model, protocol and lines.',
  schemaVersion: '11.5',
  fields: {
    name: text('Device Name', {
      required: true,
      names: true,
      pattern: PHONE_NAME_PATTERN,
      maxLength: 15,
      description: 'Up to 15 letters and digits, e.g. SEP001122334455 (SEP followed by the MAC address).',
    }),
    product: oneOf('Product', PHONE_PRODUCTS, { maxLength: 100, description: 'Phone model, e.g. Cisco 8845.' }),
    protocol: oneOf('Protocol', PHONE_PROTOCOLS, { default: 'SIP' }),
    description: text('Description', { maxLength: 200, multiline: true }),
    lines: list(
      'Lines',
      object('Line', {
        pattern: directoryNumber('Directory Number', { required: true }),
        routePartitionName: text('Route Partition', { default: '', names: true }),
      }),
      { default: [], description: 'Lines on the phone, first line first.' },
    ),
  },
  summaryAttrs: ['name', 'product', 'protocol', 'description'],
  businessKey: { hierarchy: false, fields: ['name'] },
  actions: resourceActions(),
  storage: 'instances',
  workflow: 'generic',
};
