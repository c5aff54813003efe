import { isJsonObject, type Json, type JsonObject } from '../api-types';
import type { Principal } from '../auth/principal';
import type { Store } from '../domain/store';
import { ApiError } from '../errors';
import { exportData } from '../models/export-data';
import { findModel } from '../models/registry';
import type { ModelDef } from '../models/types';
import { instanceHref, visibleData } from '../domain/resource-view';
import { searchRows } from '../search/run-search';
import type { SearchRequest } from '../search/search-request';
import type { InstanceRecord } from '../store/instances-repo';
import type { NodeRow } from '../store/nodes-repo';
import { exportFileName, xlsxFile, type ExportFile } from './export-file';
import { instancesSheet, lookOf } from './export-sheet';
import { writeWorkbook, type SheetSpec } from './write-workbook';

/**
 * `POST /api/export/export_data/?url=/api/tool/Search/`: the instances a search finds, written
 * whole (not just the summary the search shows) so the file can be edited and loaded back.
 * `formatted`: one directive-layout sheet per model (names, groups, titles); `raw`: one
 * compact sheet per model (field names in row 1); `json`: the instances as JSON.
 */
export type ExportDataType = 'formatted' | 'raw' | 'json';

const TYPES = (exportData.fields.export_data_type.choices ?? []).map((choice) => choice.value);

export function exportDataTypeOf(body: Json | undefined): ExportDataType {
  const value = isJsonObject(body)
    ? (body.export_data_type ?? (isJsonObject(body.data) ? body.data.export_data_type : undefined))
    : undefined;
  // Required (decisions.md lists it as the request's field, the schema says so): a missing type
  // is refused like a wrong one, never guessed.
  if (typeof value !== 'string' || !TYPES.includes(value)) {
    const message =
      value === undefined
        ? `export_data_type is required: one of ${TYPES.join(', ')}.`
        : `export_data_type must be one of ${TYPES.join(', ')}, not ${JSON.stringify(value)}.`;
    throw new ApiError(400, 'validation-failed', message, [{ field: 'export_data_type', message }]);
  }
  return value as ExportDataType;
}

interface Found {
  model: ModelDef;
  record: InstanceRecord;
}

/** The search's hits, read again whole from the store, in the search's order. */
function searchHits(store: Store, principal: Principal, request: SearchRequest): Found[] {
  return searchRows(store, principal, request).flatMap(([modelType, pkid]) => {
    const model = findModel(modelType);
    const record = store.instances.get(pkid);
    return model && record && model.storage === 'instances' ? [{ model, record }] : [];
  });
}

/** The hits per model, models in the order the search first met them. */
function byModel(hits: Found[]): { model: ModelDef; records: InstanceRecord[] }[] {
  const groups = new Map<string, { model: ModelDef; records: InstanceRecord[] }>();
  for (const { model, record } of hits) {
    const group = groups.get(model.modelType) ?? { model, records: [] };
    group.records.push(record);
    groups.set(model.modelType, group);
  }
  return [...groups.values()];
}

function jsonFile(query: string, hits: Found[], now: string): ExportFile {
  const resources: JsonObject[] = hits.map(({ model, record }) => ({
    data: visibleData(model, record.data, record.hierarchyPath),
    meta: {
      model_type: model.modelType,
      pkid: record.pkid,
      hierarchy: record.hierarchyPath,
      href: instanceHref(model.modelType, record.pkid),
    },
  }));
  const bytes = new TextEncoder().encode(JSON.stringify({ query, total: resources.length, resources }, null, 2));
  return { fileName: exportFileName('tool/Search', 'exported_json', now, 'json'), contentType: 'application/json; charset=utf-8', bytes };
}

export async function searchExportFile(
  store: Store,
  principal: Principal,
  request: SearchRequest,
  type: ExportDataType,
  node: NodeRow,
): Promise<ExportFile> {
  const hits = searchHits(store, principal, request);
  const now = store.now();
  if (type === 'json') return jsonFile(request.query, hits, now);
  const layout = type === 'formatted' ? 'directive' : 'compact';
  const sheets: SheetSpec[] = byModel(hits).map(({ model, records }) =>
    instancesSheet(model, lookOf(store, model, node, new URLSearchParams()), records, { hierarchy: node.path, layout }),
  );
  // A workbook needs a sheet; a `#` sheet is one the reader skips.
  if (sheets.length === 0)
    sheets.push({ name: '#no results', columns: [{ name: 'Query', group: '', title: 'Query', text: true }], rows: [[request.query]] });
  return xlsxFile(exportFileName('tool/Search', `exportedsheet_${type}`, now), await writeWorkbook(sheets));
}
