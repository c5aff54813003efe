import { ApiError } from '../errors';
import { bulkLoad } from './bulk-load';
import { bundle } from './bundle';
import { configurationTemplate } from './configuration-template';
import { countries } from './countries';
import { cucmLine } from './cucm-line';
import { cucmPhone } from './cucm-phone';
import { exportData } from './export-data';
import { fieldDisplayPolicy } from './field-display-policy';
import { generalHelp } from './general-help';
import { hierarchyNode } from './hierarchy-node';
import { internalNumberInventory } from './internal-number-inventory';
import { lineRelation } from './line-relation';
import { macro } from './macro';
import { search } from './search';
import { subscriber } from './subscriber';
import { transaction } from './transaction';
import type { FieldDef, ModelDef } from './types';
import { user } from './user';

export const ALL_MODELS: readonly ModelDef[] = [
  hierarchyNode,
  user,
  generalHelp,
  countries,
  internalNumberInventory,
  configurationTemplate,
  fieldDisplayPolicy,
  macro,
  cucmLine,
  cucmPhone,
  lineRelation,
  subscriber,
  bundle,
  transaction,
  bulkLoad,
  search,
  exportData,
];

/**
 * Field names are inlined into SQL (JSON paths, index expressions), so the registry itself
 * guarantees they are plain identifiers; a request never supplies one that is not found here.
 */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function checkFields(modelType: string, fields: Record<string, FieldDef>, prefix = ''): void {
  for (const [name, field] of Object.entries(fields)) {
    if (!FIELD_NAME.test(name)) throw new Error(`${modelType}: field name ${prefix}${name} is not an identifier`);
    if (field.properties) checkFields(modelType, field.properties, `${prefix}${name}.`);
    if (field.items?.properties) checkFields(modelType, field.items.properties, `${prefix}${name}.0.`);
  }
}

function checkModel(model: ModelDef): void {
  if (!/^(data|relation|device\/cucm|tool|view)\/[A-Za-z]+$/.test(model.modelType)) {
    throw new Error(`bad model type ${model.modelType}`);
  }
  checkFields(model.modelType, model.fields);
  for (const name of [...model.summaryAttrs, ...model.businessKey.fields]) {
    const field = model.fields[name];
    if (!field) throw new Error(`${model.modelType}: summary or key field ${name} is not a field`);
    if (field.type === 'object' || field.type === 'array') {
      throw new Error(`${model.modelType}: summary or key field ${name} must be a scalar`);
    }
    if (field.writeOnly) throw new Error(`${model.modelType}: summary or key field ${name} is write-only`);
  }
}

const byType = new Map<string, ModelDef>();
for (const model of ALL_MODELS) {
  checkModel(model);
  byType.set(model.modelType, model);
}

export function findModel(modelType: string): ModelDef | undefined {
  return byType.get(modelType);
}

export function requireModel(modelType: string): ModelDef {
  const model = byType.get(modelType);
  if (!model) throw new ApiError(404, 'not-found', `Unknown model type ${modelType}: no such model is served here.`);
  return model;
}

/** Resolves a bare model name (`LineRelation`) when exactly one model carries it. */
export function findModelByName(name: string): ModelDef | undefined {
  const matches = ALL_MODELS.filter((model) => model.modelType.split('/').pop() === name);
  return matches.length === 1 ? matches[0] : undefined;
}
