import { resourceActions } from './actions';
import { oneOf, text } from './field-builders';
import type { ModelDef } from './types';

export const user: ModelDef = {
  modelType: 'data/User',
  title: 'User',
  description: 'A person or system that signs in: a login name, a role, and the hierarchy node it belongs to.',
  schemaVersion: '0.2.2',
  fields: {
    username: text('Username', {
      required: true,
      names: true,
      pattern: '^[A-Za-z0-9_][A-Za-z0-9_.@-]*$',
      maxLength: 64,
      description: 'Login name: letters, digits, _, ., @ and -; it cannot start with ., @ or -.',
    }),
    role: oneOf('Role', ['admin', 'operator', 'readonly'], {
      required: true,
      default: 'readonly',
      description: 'admin: change, bulk load and export; operator: read, search and export; readonly: read and search.',
    }),
    email: text('Email', { format: 'email', maxLength: 254 }),
    password: {
      type: 'string',
      title: 'Password',
      format: 'password',
      writeOnly: true,
      minLength: 8,
      maxLength: 128,
      description: 'Needed when the user is created; leave empty on modify to keep the current password.',
    },
  },
  summaryAttrs: ['username', 'role', 'email'],
  businessKey: { hierarchy: false, fields: ['username'] },
  actions: resourceActions(),
  storage: 'instances',
  workflow: 'user',
};
