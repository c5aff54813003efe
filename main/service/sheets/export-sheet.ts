import type { Store } from '../domain/store';
import { configurationTemplate } from '../models/configuration-template';
import type { ModelDef } from '../models/types';
import { draft03Schema } from '../schema/draft03';
import type { InstanceRecord } from '../store/instances-repo';
import type { NodeRow } from '../store/nodes-repo';
import { formView } from '../templates/field-display-policy';
import { namedShaper } from '../templates/shaper-lookup';
import { cellValueOf, directiveText, sheetNameOf, valueAt, type CellValue } from './write-cells';
import { arrayWidths, groupsOf, META, sheetColumns, type ColumnLook, type SheetColumn } from './write-columns';
import type { SheetSpec } from './write-workbook';

/** What an exported row needs of an instance. */
export type ExportRecord = Pick<InstanceRecord, 'pkid' | 'hierarchyPath' | 'data'>;

/**
 * An exported row modifies its instance when loaded back (found by its pkid), so an export
 * can be edited and loaded into the workspace it came from.
 */
export const EXPORT_ACTION = 'modify';

/** The model's sheet look with the Field Display Policy a form at `node` would use (policy / policy_name, else `default`). */
export function lookOf(store: Store, model: ModelDef, node: NodeRow, query: URLSearchParams): ColumnLook {
  const form = formView(store, model, node, query, { schema: draft03Schema(model), data: {}, meta: {} });
  return { schema: form.schema, groups: groupsOf(form.meta) };
}

/** The Configuration Template named by `template` / `template_name` (checked to exist and fit), for A1. */
export function templateNameOf(store: Store, model: ModelDef, node: NodeRow, query: URLSearchParams): string | undefined {
  const record = namedShaper(store, configurationTemplate, model, node, query, { pkidParam: 'template', nameParam: 'template_name' });
  return typeof record?.data.name === 'string' ? record.data.name : undefined;
}

export interface SheetPlace {
  /** The directive's hierarchy; absent leaves it out. */
  hierarchy?: string;
  template?: string;
  /** `directive`: A1, names, groups, titles, data from row 5; `compact`: names in row 1, data from row 2. */
  layout: 'directive' | 'compact';
}

function directiveOf(model: ModelDef, place: SheetPlace): string | undefined {
  if (place.layout === 'compact') return undefined;
  return directiveText({
    entity: model.modelType,
    hierarchy: place.hierarchy,
    parallel: false,
    evaluateMacros: false,
    template: place.template,
  });
}

/** The bulk load template: the directive and header rows, no data; hidden fields left out. */
export function templateSheet(model: ModelDef, look: ColumnLook, place: SheetPlace): SheetSpec {
  const columns = sheetColumns(model, look, { dropHidden: true, writeOnly: true, widths: new Map() });
  return { name: sheetNameOf(model.modelType), directive: directiveOf(model, place), columns, rows: [] };
}

/** One sheet holding instances of a model, every field a column (arrays as wide as the widest). */
export function instancesSheet(model: ModelDef, look: ColumnLook, records: ExportRecord[], place: SheetPlace): SheetSpec {
  const widths = arrayWidths(
    model,
    records.map((record) => record.data),
  );
  const columns = sheetColumns(model, look, { dropHidden: false, writeOnly: false, widths });
  return { name: sheetNameOf(model.modelType), directive: directiveOf(model, place), columns, rows: rowsOf(columns, records) };
}

/** The cells of each record, one row at a time: a stream of records stays a stream. */
export function* rowsOf(columns: SheetColumn[], records: Iterable<ExportRecord>): Generator<CellValue[]> {
  for (const record of records) yield columns.map((column) => cellOf(column, record));
}

function cellOf(column: SheetColumn, record: ExportRecord): CellValue {
  if (column.path !== undefined) return cellValueOf(valueAt(record.data, column.path));
  if (column.name === META.hierarchy) return record.hierarchyPath;
  if (column.name === META.action) return EXPORT_ACTION;
  if (column.name === META.pkid) return record.pkid;
  return null;
}
