import { resourceActions } from './actions';
import { text } from './field-builders';
import type { ModelDef } from './types';

/** The spec's list of fields a Subscriber list may filter on (its summary attributes too). */
export const SUBSCRIBER_FILTER_FIELDS = [
  'userid',
  'firstname',
  'lastname',
  'mailid',
  'hierarchy_friendly_name',
  'device',
  'extension_mobility',
  'phone',
] as const;

export const subscriber: ModelDef = {
  modelType: 'relation/Subscriber',
  title: 'Subscriber',
  description: 'A person using the phone system: identity, where they sit, and their device and phone number.',
  schemaVersion: '0.2.2',
  fields: {
    userid: text('User ID', { required: true, names: true, maxLength: 128 }),
    firstname: text('First Name', { maxLength: 64 }),
    lastname: text('Last Name', { maxLength: 64 }),
    mailid: text('Email', { format: 'email', maxLength: 254 }),
    hierarchy_friendly_name: text('Hierarchy Friendly Name', { maxLength: 200 }),
    device: text('Device', { names: true, maxLength: 100, description: "Name of the subscriber's phone, e.g. SEP001122334455." }),
    extension_mobility: text('Extension Mobility', { maxLength: 100 }),
    phone: text('Phone Number', { maxLength: 50 }),
  },
  summaryAttrs: [...SUBSCRIBER_FILTER_FIELDS],
  businessKey: { hierarchy: false, fields: ['userid'] },
  actions: resourceActions(),
  storage: 'instances',
  workflow: 'generic',
};
