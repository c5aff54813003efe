import type { WorkstationModel, WorkstationModelList } from '../../main/service/contract/workstation-api';

export const CATALOG = '/workstation/models/';

/**
 * A few models of the service's answer to GET /workstation/models/, as its registry declares
 * them (test/service/workstation-models.test.ts checks each against the service's own answer).
 */
export const CATALOG_MODELS: WorkstationModel[] = [
  {
    model_type: 'relation/LineRelation',
    title: 'Line Relation',
    description: 'A directory number at a hierarchy node: the device line, its number in the inventory, and the phone it sits on.',
    kind: 'relation',
    summary_attrs: [
      { name: 'pattern', title: 'Directory Number' },
      { name: 'routePartitionName', title: 'Route Partition' },
      { name: 'alertingName', title: 'Alerting Name' },
      { name: 'summary_device', title: 'Device' },
      { name: 'usage', title: 'Usage' },
    ],
    business_key: { hierarchy: true, fields: ['pattern', 'routePartitionName'] },
    actions: ['add', 'modify', 'delete', 'export', 'bulk_load'],
  },
  {
    model_type: 'device/cucm/Phone',
    title: 'Phone',
    description: 'A phone as the call manager holds it: its device name, model, protocol and lines.',
    kind: 'device',
    summary_attrs: [
      { name: 'name', title: 'Device Name' },
      { name: 'product', title: 'Product' },
      { name: 'protocol', title: 'Protocol' },
      { name: 'description', title: 'Description' },
    ],
    business_key: { hierarchy: false, fields: ['name'] },
    actions: ['add', 'modify', 'delete', 'export', 'bulk_load'],
  },
  {
    model_type: 'data/HierarchyNode',
    title: 'Hierarchy Node',
    description: 'A node of the hierarchy tree (provider, customer, site...) under which resources live.',
    kind: 'data',
    summary_attrs: [
      { name: 'name', title: 'Name' },
      { name: 'node_type', title: 'Node Type' },
      { name: 'description', title: 'Description' },
    ],
    business_key: { hierarchy: true, fields: ['name'] },
    actions: ['add', 'modify', 'delete', 'export', 'bulk_load'],
  },
  {
    model_type: 'data/User',
    title: 'User',
    description: 'A person or system that signs in: a login name, a role, and the hierarchy node it belongs to.',
    kind: 'data',
    summary_attrs: [
      { name: 'username', title: 'Username' },
      { name: 'role', title: 'Role' },
      { name: 'email', title: 'Email' },
    ],
    business_key: { hierarchy: false, fields: ['username'] },
    actions: ['add', 'modify', 'delete', 'export', 'bulk_load'],
  },
];

/** The (fake) service's answer to GET /workstation/models/ for a node. */
export function catalogAnswer(hierarchy: string, nodeType = 'Site'): { body: WorkstationModelList } {
  return {
    body: {
      hierarchy: { requested: hierarchy, pkid: hierarchy, path: null, node_type: nodeType },
      workspace: 'Local',
      models: CATALOG_MODELS,
    },
  };
}

/** The title the service gives a model type. */
export function titleIn(modelType: string): string {
  const model = CATALOG_MODELS.find((entry) => entry.model_type === modelType);
  if (!model) throw new Error(`no model ${modelType} in the catalog fixture`);
  return model.title;
}
