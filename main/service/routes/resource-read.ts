import type { ApiResponse, JsonObject } from '../api-types';
import { resolveHierarchy } from '../domain/hierarchy';
import { requireInstance } from '../domain/instance-ops';
import type { Store } from '../domain/store';
import { parseBoolean } from '../list/list-params';
import { isDeviceModel, type FieldDef, type ModelDef } from '../models/types';
import { businessKeyOf } from '../domain/business-key';
import type { InstanceRecord } from '../store/instances-repo';
import { draft03Schema } from '../schema/draft03';
import { schemaMeta } from '../schema/schema-meta';
import { header, type RequestContext, readsUp } from '../request-context';
import type { RouteDeps } from './deps';
import { html, json, JSON_TYPE } from '../responses';
import { formView } from '../templates/field-display-policy';
import { guardInstance, guardNode } from '../domain/guards';
import { readKey } from './read-cache';
import { instanceEnvelope } from '../domain/resource-view';
import { schemaRulesMeta } from './schema-rules';

export function getInstance(deps: RouteDeps, ctx: RequestContext, model: ModelDef, pkid: string): ApiResponse {
  const fromCache = parseBoolean(ctx.query, 'cached', true);
  const key = readKey(ctx.principal.pkid, header(ctx, 'x-version'), ctx.request.url);
  const hit = fromCache ? deps.readCache.get(key) : undefined;
  if (hit !== undefined) return { status: 200, headers: { 'content-type': JSON_TYPE }, body: hit };
  const { store } = deps;
  let record = requireInstance(store, pkid, model.modelType);
  guardInstance(ctx, store, record, 'read', readsUp(ctx));
  if (isDeviceModel(model) && !fromCache) record = refreshFromDevice(deps, model, record);
  const envelope = instanceEnvelope(store, model, record, ctx.deviceSchemaVersion);
  if (isDeviceModel(model)) (envelope.meta as JsonObject).cached = fromCache;
  if (parseBoolean(ctx.query, 'schema', false)) {
    envelope.schema = draft03Schema(model);
    Object.assign(envelope.meta as JsonObject, {
      ...schemaMeta(model, ctx.deviceSchemaVersion),
      pkid: record.pkid,
      hierarchy: record.hierarchyPath,
    });
  }
  const response = json(200, envelope);
  // A cached=false read must reach the device every time: never remembered.
  if (fromCache) deps.readCache.set(key, response.body as string);
  return response;
}

/** cached=false on a device model: read what the device holds and make it the cache. */
function refreshFromDevice(deps: RouteDeps, model: ModelDef, record: InstanceRecord): InstanceRecord {
  const copy = deps.store.instances.deviceCopy(record.pkid);
  if (copy === undefined || copy === JSON.stringify(record.data)) return record;
  const data = JSON.parse(copy) as JsonObject;
  deps.store.instances.refreshFromDevice(record, copy, data, businessKeyOf(model, data, record.hierarchyPkid));
  deps.readCache.invalidate();
  return { ...record, data };
}

/** `add/`: the form schema with each field's default as the form's starting data. */
export function addForm(store: Store, ctx: RequestContext, model: ModelDef): ApiResponse {
  const node = resolveHierarchy(store.nodes, ctx.query.get('hierarchy'));
  guardNode(ctx, node, 'read', readsUp(ctx));
  const data: JsonObject = {};
  for (const [name, field] of Object.entries(model.fields)) {
    if (field.default !== undefined && !field.readonly) data[name] = field.default;
  }
  const plain = { schema: draft03Schema(model), data, meta: {} };
  const form = formView(store, model, node, ctx.query, plain);
  const meta: JsonObject = { ...schemaMeta(model, ctx.deviceSchemaVersion), hierarchy: node.path, ...form.meta };
  if (parseBoolean(ctx.query, 'schema_rules', false)) Object.assign(meta, schemaRulesMeta(store, model, node));
  return json(200, { data: form.data, schema: form.schema, meta });
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function fieldRows(fields: Record<string, FieldDef>, prefix = ''): string[] {
  return Object.entries(fields).flatMap(([name, field]) => {
    const type = Array.isArray(field.type) ? field.type.join(' or ') : field.type;
    const notes = [
      field.required ? 'required' : '',
      field.readonly ? 'read-only' : '',
      field.writeOnly ? 'write-only' : '',
      field.default !== undefined ? `default ${JSON.stringify(field.default)}` : '',
      field.choices ? `one of ${field.choices.map((choice) => choice.value).join(', ')}` : '',
      field.pattern ? `pattern ${field.pattern}` : '',
      field.maxLength !== undefined ? `at most ${field.maxLength} characters` : '',
    ].filter(Boolean);
    const row = `<tr><td><code>${escapeHtml(prefix + name)}</code></td><td>${escapeHtml(field.title)}</td><td>${escapeHtml(type)}</td><td>${escapeHtml(notes.join('; '))}</td><td>${escapeHtml(field.description ?? '')}</td></tr>`;
    const nested = field.properties ? fieldRows(field.properties, `${prefix}${name}.`) : [];
    const items = field.items?.properties ? fieldRows(field.items.properties, `${prefix}${name}.0.`) : [];
    return [row, ...nested, ...items];
  });
}

/** `help/`: a page built from the schema, so it can never disagree with what is validated. */
export function helpPage(model: ModelDef): ApiResponse {
  const actions = model.actions
    .map(
      (action) =>
        `<li><code>${action.method} ${escapeHtml(action.path || '/')}</code> ${escapeHtml(action.title)}${action.supportAsync ? ' (supports nowait=true)' : ''}</li>`,
    )
    .join('');
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(model.title)}: help</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}</style>
</head><body>
<h1>${escapeHtml(model.title)} <small><code>${escapeHtml(model.modelType)}</code></small></h1>
<p>${escapeHtml(model.description)}</p>
<h2>Fields</h2>
<table><thead><tr><th>Field</th><th>Title</th><th>Type</th><th>Rules</th><th>Help</th></tr></thead><tbody>
${fieldRows(model.fields).join('\n')}
</tbody></table>
<h2>Summary attributes</h2><p>${model.summaryAttrs.map((name) => `<code>${escapeHtml(name)}</code>`).join(', ')}: shown in lists, usable in filter_field and order_by.</p>
<h2>Business key</h2><p>${model.businessKey.fields.map((name) => `<code>${escapeHtml(name)}</code>`).join(' + ')}${model.businessKey.hierarchy ? ', unique within its hierarchy node' : ', unique in the whole store'}.</p>
<h2>Actions</h2><ul>${actions}</ul>
</body></html>`;
  return html(200, page);
}
