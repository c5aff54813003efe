import type { JsonObject } from '../api-types';
import type { Principal } from '../auth/principal';
import type { Store } from '../domain/store';
import { notFound } from '../errors';
import { requireModel } from '../models/registry';
import type { ModelDef } from '../models/types';
import { guardInstance, type Caller } from '../domain/guards';
import { parseRoutePath } from '../domain/route-path';
import type { SearchRequest } from '../search/search-request';
import type { Db } from '../store/db';
import { xlsxFile, type ExportFile } from './export-file';
import { searchExportFile, type ExportDataType } from './export-search';
import { rowsOf, type ExportRecord, type SheetPlace } from './export-sheet';
import { badHrefs, MAX_EXPORT_ROWS, tooMany } from './export-select';
import { directiveText, sheetNameOf } from './write-cells';
import { arrayWidths, sheetColumns, type ColumnLook } from './write-columns';
import { writeWorkbook } from './write-workbook';

/**
 * An export as a job a worker thread runs: the route checks the request and the caller's reach
 * and hands over plain data (the list's SQL, the hrefs, or the search); the worker reads the
 * instances from its own connection in one pass (two when the model has arrays, whose widths
 * set the columns) and streams them into exceljs's streaming writer, never holding them all.
 */
export type ExportSource =
  { kind: 'list'; sql: string; params: unknown[] } | { kind: 'hrefs'; hrefs: string[]; caller: Caller; readUp: boolean };

export interface InstancesExport {
  source: ExportSource;
  modelType: string;
  look: ColumnLook;
  place: SheetPlace;
  fileName: string;
}

/** A search's hits (at most 1,000), in the layout `export_data_type` asks for. */
export interface SearchExport {
  search: { principal: Principal; request: SearchRequest; type: ExportDataType; nodePkid: string };
}

export type ExportJob = InstancesExport | SearchExport;

export type WrittenExport = ExportFile;

interface ListRow {
  pkid: string;
  hierarchy_pkid: string;
  data: string;
}

/** The instances of a source, one at a time. `cursor` is a connection of its own: the store's stays free for node look-ups. */
function* recordsOf(store: Store, cursor: Db, source: ExportSource, model: ModelDef): Generator<ExportRecord> {
  if (source.kind === 'hrefs') {
    for (const href of source.hrefs) yield recordOfHref(store, source, model, href);
    return;
  }
  let count = 0;
  for (const row of cursor.prepare(source.sql).iterate(...source.params) as IterableIterator<ListRow>) {
    count += 1;
    if (count > MAX_EXPORT_ROWS) throw tooMany();
    yield { pkid: row.pkid, hierarchyPath: store.nodes.get(row.hierarchy_pkid)?.path ?? '', data: JSON.parse(row.data) as JsonObject };
  }
}

/** Each href must be an instance of the model the caller may export; one refusal refuses all. */
function recordOfHref(store: Store, source: { caller: Caller; readUp: boolean }, model: ModelDef, href: string): ExportRecord {
  const route = parseRoutePath(new URL(href, 'http://local').pathname);
  if (!route || route.modelType !== model.modelType || route.rest.length !== 1)
    throw badHrefs(`${href} is not an instance path of ${model.modelType}.`);
  const record = store.instances.get(route.rest[0]);
  if (!record || record.modelType !== model.modelType) throw notFound(`${model.modelType} ${route.rest[0]} was not found.`);
  guardInstance(source.caller, store, record, 'export', source.readUp);
  return record;
}

const hasArrays = (model: ModelDef): boolean =>
  Object.values(model.fields).some((field) => field.type === 'array' || field.type === 'object');

export async function writeExport(store: Store, cursor: Db, job: ExportJob): Promise<WrittenExport> {
  if ('search' in job) {
    const { search } = job;
    const node = store.nodes.get(search.nodePkid);
    if (!node) throw notFound('The hierarchy node of this export no longer exists.');
    return searchExportFile(store, search.principal, search.request, search.type, node);
  }
  const { source } = job;
  const model = requireModel(job.modelType);
  // Arrays (a phone's lines) take as many columns as the widest instance has: a first pass finds it.
  const widths = hasArrays(model) ? arrayWidths(model, mapRecords(recordsOf(store, cursor, source, model))) : new Map<string, number>();
  const columns = sheetColumns(model, job.look, { dropHidden: false, writeOnly: false, widths });
  const directive =
    job.place.layout === 'compact'
      ? undefined
      : directiveText({
          entity: model.modelType,
          hierarchy: job.place.hierarchy,
          parallel: false,
          evaluateMacros: false,
          template: job.place.template,
        });
  const sheet = { name: sheetNameOf(model.modelType), directive, columns, rows: rowsOf(columns, recordsOf(store, cursor, source, model)) };
  return xlsxFile(job.fileName, await writeWorkbook([sheet]));
}

function* mapRecords(records: Iterable<ExportRecord>): Generator<JsonObject> {
  for (const record of records) yield record.data;
}
