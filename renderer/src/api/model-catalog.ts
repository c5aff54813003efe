/**
 * The resource models the UI offers, and at which node types. The API has no call that says what
 * a node can hold, so this follows the hierarchy's use: sites hold the subscriber-facing
 * resources, nodes above them hold the organisation's settings and their children.
 */
export interface CatalogModel {
  modelType: string;
  title: string;
}

const SITE_MODELS: CatalogModel[] = [
  { modelType: 'relation/LineRelation', title: 'Lines' },
  { modelType: 'relation/Subscriber', title: 'Subscribers' },
  { modelType: 'device/cucm/Phone', title: 'Phones' },
  { modelType: 'device/cucm/Line', title: 'Device lines' },
  { modelType: 'data/InternalNumberInventory', title: 'Number inventory' },
  { modelType: 'data/User', title: 'Users' },
];

const SETTINGS_MODELS: CatalogModel[] = [
  { modelType: 'data/ConfigurationTemplate', title: 'Configuration templates' },
  { modelType: 'data/FieldDisplayPolicy', title: 'Field display policies' },
  { modelType: 'data/Macro', title: 'Macros' },
];

const NODE_MODEL: CatalogModel = { modelType: 'data/HierarchyNode', title: 'Hierarchy nodes' };
const COUNTRIES: CatalogModel = { modelType: 'data/Countries', title: 'Countries' };

export function modelsFor(nodeType: string): CatalogModel[] {
  if (nodeType === 'Site') return [...SITE_MODELS, ...SETTINGS_MODELS];
  if (nodeType === 'Root' || nodeType === 'Provider') return [NODE_MODEL, ...SITE_MODELS, ...SETTINGS_MODELS, COUNTRIES];
  return [NODE_MODEL, ...SITE_MODELS, ...SETTINGS_MODELS];
}

export const ALL_MODELS: CatalogModel[] = [NODE_MODEL, ...SITE_MODELS, ...SETTINGS_MODELS, COUNTRIES];

export function titleOf(modelType: string): string {
  return ALL_MODELS.find((m) => m.modelType === modelType)?.title ?? modelType;
}
