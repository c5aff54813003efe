import { resourceActions } from './actions';
import { oneOf, text } from './field-builders';
import type { ModelDef } from './types';

/** A node name: letters, digits, `_`, `-` and inner spaces; never a dot (dots separate a path). */
export const NODE_NAME_PATTERN = '^[A-Za-z0-9_-]([A-Za-z0-9_ -]*[A-Za-z0-9_-])?$';

export const hierarchyNode: ModelDef = {
  modelType: 'data/HierarchyNode',
  title: 'Hierarchy Node',
  description: 'A node of the hierarchy tree (provider, customer, site...) under which resources live.',
  schemaVersion: '0.3.0',
  fields: {
    name: text('Name', {
      required: true,
      names: true,
      pattern: NODE_NAME_PATTERN,
      maxLength: 64,
      description: 'Unique among the children of the parent node; letters, digits, _, - and inner spaces, no dots.',
    }),
    node_type: oneOf('Node Type', ['Root', 'Provider', 'Reseller', 'Customer', 'Site', 'Intermediate'], {
      required: true,
    }),
    description: text('Description', { maxLength: 200, multiline: true }),
  },
  summaryAttrs: ['name', 'node_type', 'description'],
  businessKey: { hierarchy: true, fields: ['name'] },
  actions: resourceActions(),
  storage: 'instances',
  workflow: 'hierarchy-node',
};
