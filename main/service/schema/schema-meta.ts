import type { JsonObject } from '../api-types';
import type { ActionMeta, SummaryAttr } from '../contract/resource-api';
import { isDeviceModel, type ModelDef } from '../models/types';
import { LATEST_DEVICE_SCHEMA_VERSION } from './api-versions';

export const modelBase = (model: ModelDef): string => `/api/${model.modelType}/`;

/** Device models follow the request's api_version mapping; other models keep their own. */
export function schemaVersionOf(model: ModelDef, deviceSchemaVersion: string = LATEST_DEVICE_SCHEMA_VERSION): string {
  return isDeviceModel(model) ? deviceSchemaVersion : model.schemaVersion;
}

export function summaryAttrsMeta(model: ModelDef): SummaryAttr[] {
  return model.summaryAttrs.map((name) => ({ name, title: model.fields[name]?.title ?? name }));
}

function actionEntry(model: ModelDef, action: ModelDef['actions'][number], pkid?: string): ActionMeta {
  const path = action.path.startsWith('/') || action.path.startsWith('?') ? action.path : action.path.replace('{pkid}', pkid ?? '{pkid}');
  const href = action.path.startsWith('/') ? path : `${modelBase(model)}${path}`;
  return { title: action.title, method: action.method, href, class: action.class, support_async: action.supportAsync };
}

/** Schema meta's `actions`: an array, as the spec's meta table gives it. */
export function actionsArray(model: ModelDef, pkid?: string): JsonObject[] {
  return model.actions.map((action) => ({ name: action.name, ...actionEntry(model, action, pkid) }));
}

/** List meta's `actions`: an object keyed by action name, as decisions.md gives it. */
export function actionsByName(model: ModelDef): Record<string, ActionMeta> {
  const actions: Record<string, ActionMeta> = {};
  for (const action of model.actions) actions[action.name] = actionEntry(model, action);
  return actions;
}

export function schemaMeta(model: ModelDef, deviceSchemaVersion?: string): JsonObject {
  return {
    model_type: model.modelType,
    title: model.title,
    cached: true,
    schema_version: schemaVersionOf(model, deviceSchemaVersion),
    summary_attrs: summaryAttrsMeta(model),
    business_key: { hierarchy: model.businessKey.hierarchy, fields: model.businessKey.fields },
    actions: actionsArray(model),
  };
}
