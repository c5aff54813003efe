import { resourceActions } from './actions';
import { text } from './field-builders';
import type { ModelDef } from './types';

export const countries: ModelDef = {
  modelType: 'data/Countries',
  title: 'Countries',
  description: 'A country and its dialling codes, used to build and check phone numbers.',
  schemaVersion: '0.2.2',
  fields: {
    country_name: text('Country Name', { required: true, maxLength: 100 }),
    iso_code: text('ISO Code', {
      required: true,
      pattern: '^[A-Z]{2}$',
      maxLength: 2,
      description: 'ISO 3166-1 alpha-2 code in capitals, e.g. GB.',
    }),
    international_prefix: text('International Prefix', {
      pattern: '^[0-9]{1,6}$',
      maxLength: 6,
      description: 'Dialled before a foreign country code, e.g. 00.',
    }),
    country_code: text('Country Code', {
      pattern: '^[0-9]{1,4}$',
      maxLength: 4,
      description: 'The country calling code without + or prefix, e.g. 44.',
    }),
  },
  summaryAttrs: ['country_name', 'iso_code', 'international_prefix', 'country_code'],
  businessKey: { hierarchy: true, fields: ['iso_code'] },
  actions: resourceActions(),
  storage: 'instances',
  workflow: 'generic',
};
