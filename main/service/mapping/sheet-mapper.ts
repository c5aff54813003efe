import { ApiError } from '../errors';
import type { ModelDef } from '../models/types';
import { metaText } from '../sheets/field-value';
import { columnLetters } from '../sheets/sheet-xml-scan';
import type { SheetRow } from '../sheets/sheet-reader';
import type { CellValue } from '../sheets/write-cells';
import type { MappingColumn, MappingFile } from './mapping-file';
import type { MappingPlaces } from './mapping-places';
import { applyTransform, splitValue, type Transform, type TransformContext } from './transforms';

/**
 * A customer's row made a row of our compact bulk-load sheet by a mapping (the columns of the
 * model's fields it names, the meta columns first): values mapped, transforms applied, constants,
 * joins, splits and the sheet's name filled in. One mapper per sheet, made from its header row:
 * a mapping names columns by header, so a header it names that the sheet lacks, or has twice,
 * refuses the sheet with a 400 saying which.
 */
const META_NAMES: Record<string, string> = { '#Hierarchy Node': 'Hierarchy Node', '#Action': 'Action', '#CFT Template': 'CFT Template' };

export const textOf = (row: SheetRow, column: number): string => {
  const raw = row.cells.get(column);
  return raw ? (metaText(raw).text ?? '') : '';
};

function valueOf(mapped: MappingColumn, text: string, context: TransformContext): CellValue {
  let value = text;
  for (const transform of mapped.transforms ?? []) value = applyTransform(value, transform, context);
  const to = mapped.values?.[value] ?? mapped.values?.[text];
  if (to !== undefined) return to;
  return value === '' ? null : value;
}

interface Placed {
  name: string;
  /** The source column, for a mapped column. */
  source?: { column: number; mapped: MappingColumn };
  constant?: string;
  join?: { columns: number[]; separator: string };
  /** Part `part` of `parts` of a column cut at a separator. */
  split?: { column: number; separator: string; part: number; parts: number; transforms: Transform[] };
  /** The sheet's name, through these transforms. */
  sheetName?: Transform[];
}

/** A field's header as the template writes it: its title, unless another field has the same title (then its name). */
function headerOf(model: ModelDef, target: string): string {
  const meta = META_NAMES[target];
  if (meta) return meta;
  const title = model.fields[target]?.title;
  if (!title) return target;
  const shared = Object.values(model.fields).filter((field) => field.title.toLowerCase() === title.toLowerCase()).length;
  return shared === 1 ? title : target;
}

function placeColumns(mapping: MappingFile, model: ModelDef, headers: Map<string, number>, fileName: string): Placed[] {
  const column = (header: string): number => {
    const found = headers.get(header.trim());
    if (found === undefined)
      throw new ApiError(400, 'validation-failed', `The mapping names the column '${header}', which ${fileName} does not have.`);
    return found;
  };
  const placed: Placed[] = [];
  const nameOf = (target: string): string => headerOf(model, target);
  for (const mapped of mapping.columns)
    if (mapped.target !== null) placed.push({ name: nameOf(mapped.target), source: { column: column(mapped.header), mapped } });
  for (const [target, value] of Object.entries(mapping.constants ?? {})) placed.push({ name: nameOf(target), constant: value });
  for (const join of mapping.joins ?? [])
    placed.push({ name: nameOf(join.target), join: { columns: join.headers.map(column), separator: join.separator } });
  for (const split of mapping.splits ?? []) {
    const source = column(split.header);
    // The column's own case and trim shape its parts too: "JEAN DUPONT" in Title Case is Jean, Dupont.
    const transforms = (mapping.columns.find((entry) => entry.header.trim() === split.header.trim())?.transforms ?? []).filter(
      (transform) => transform.kind === 'case' || transform.kind === 'trim',
    );
    split.targets.forEach((target, part) => {
      if (target !== null)
        placed.push({
          name: nameOf(target),
          split: { column: source, separator: split.separator, part, parts: split.targets.length, transforms },
        });
    });
  }
  if (mapping.sheet_name) placed.push({ name: nameOf(mapping.sheet_name.target), sheetName: mapping.sheet_name.transforms ?? [] });
  // Meta columns first, as the template has them.
  const isMeta = (entry: Placed): boolean => Object.values(META_NAMES).includes(entry.name);
  return placed.sort((a, b) => Number(!isMeta(a)) - Number(!isMeta(b)));
}

/**
 * A customer's sheet mapped row by row, from its header row: the columns of the compact sheet
 * (meta columns first), each row's values in them, and the source columns the mapping leaves out
 * (kept on `#source`). Used to write the mapped workbook (applyMapping) and, in staging, to read
 * the customer's rows straight into the workbook (workbooks/stage-file.ts).
 */
/** A mapping names a column by its header: one the file has twice cannot be told apart (refused, naming both). */
function refuseTwinHeaders(header: SheetRow, mapping: MappingFile, fileName: string): void {
  const named = new Set([
    ...mapping.columns.filter((column) => column.target !== null).map((column) => column.header.trim()),
    ...(mapping.joins ?? []).flatMap((join) => join.headers.map((text) => text.trim())),
    ...(mapping.splits ?? []).map((split) => split.header.trim()),
  ]);
  const seen = new Map<string, number>();
  for (const column of [...header.cells.keys()].sort((a, b) => a - b)) {
    const text = textOf(header, column).trim();
    const first = seen.get(text);
    if (first !== undefined && named.has(text))
      throw new ApiError(
        400,
        'duplicate-column',
        `${fileName} has two columns headed '${text}' (${columnLetters(first)} and ${columnLetters(column)}): rename one so that the mapping can tell them apart.`,
      );
    seen.set(text, column);
  }
}

export interface SheetMapper {
  /** The compact sheet's headers, in order. */
  names: string[];
  /** The source columns the mapping leaves out, and their headers. */
  unmapped: number[];
  unmappedHeaders: string[];
  row(row: SheetRow): CellValue[];
}

export function sheetMapper(
  header: SheetRow,
  mapping: MappingFile,
  model: ModelDef,
  fileName: string,
  places?: MappingPlaces,
  /** The sheet's name, for a mapping that takes it (`sheet_name`). */
  sheetName = '',
): SheetMapper {
  const headers = new Map([...header.cells.keys()].map((column) => [textOf(header, column), column]));
  refuseTwinHeaders(header, mapping, fileName);
  const placed = placeColumns(mapping, model, headers, fileName);
  const used = new Set(placed.flatMap((entry) => [entry.source?.column ?? 0, entry.split?.column ?? 0, ...(entry.join?.columns ?? [])]));
  const unmapped = [...header.cells.keys()].filter((column) => !used.has(column));
  const node = placed.find((entry) => entry.name === META_NAMES['#Hierarchy Node']);
  const base: TransformContext = { nodePath: places ? (name) => places.nodePath(name) : undefined };
  return {
    names: placed.map((entry) => entry.name),
    unmapped,
    unmappedHeaders: unmapped.map((column) => textOf(header, column)),
    row(row) {
      const cellOf = (entry: Placed, context: TransformContext): CellValue => {
        if (entry.constant !== undefined) return entry.constant;
        if (entry.join) {
          const parts = entry.join.columns.map((column) => textOf(row, column)).filter((text) => text !== '');
          return parts.length > 0 ? parts.join(entry.join.separator) : null;
        }
        if (entry.split) {
          const { column, separator, part, parts, transforms } = entry.split;
          const whole = transforms.reduce((value, transform) => applyTransform(value, transform, context), textOf(row, column));
          return splitValue(whole, separator, parts)[part] || null;
        }
        if (entry.sheetName) {
          let value = sheetName;
          for (const transform of entry.sheetName) value = applyTransform(value, transform, context);
          return value || null;
        }
        return entry.source ? valueOf(entry.source.mapped, textOf(row, entry.source.column), context) : null;
      };
      // The row's node first: a local number is made E.164 with its country.
      const nodeValue = node ? cellOf(node, base) : null;
      const context: TransformContext = {
        ...base,
        countryCode: () => (places && typeof nodeValue === 'string' ? places.countryCodeOf(nodeValue) : undefined),
      };
      return placed.map((entry) => (entry === node ? nodeValue : cellOf(entry, context)));
    },
  };
}

/** The compact sheet's name: the model's. */
export const mappedSheetName = (model: ModelDef): string => model.modelType.split('/').pop() ?? model.modelType;
