import { ApiError } from '../errors';
import { findModel } from '../models/registry';
import type { ModelDef } from '../models/types';
import type { SheetProposal } from './propose-columns';
import type { MappingColumnJson, MappingFileJson, MappingTransform } from '../contract/mapping-api';

/**
 * A mapping as a file (`workstation map --save`, `--mapping`): what each source column (by its
 * header) becomes, values mapped onto valid ones, transforms, constants for every row (the node
 * as `#Hierarchy Node`) and fields built from several columns joined. Read back, it is checked
 * against the model: a target the model does not have, a transform it does not know, refuse the
 * file with a 400 naming the entry, before anything is written.
 */
export type MappingColumn = MappingColumnJson;
export type MappingFile = MappingFileJson;

const META = new Set(['#Hierarchy Node', '#Action', '#CFT Template']);
const TRANSFORMS = new Set(['trim', 'case', 'e164', 'device-from-mac', 'node']);

const bad = (message: string): ApiError => new ApiError(400, 'validation-failed', `The mapping ${message}.`);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function checkTarget(model: ModelDef, target: string, where: string): void {
  if (META.has(target)) return;
  const field = model.fields[target];
  if (!field || field.readonly) throw bad(`${where} names '${target}', which is no field of ${model.modelType} that a sheet fills`);
}

/** A transform as the file gives it: a known kind with fields of the right type. */
function checkTransforms(transforms: unknown, where: string): void {
  if (transforms === undefined) return;
  if (!Array.isArray(transforms)) throw bad(`${where} has 'transforms' that are not a list`);
  for (const transform of transforms) {
    const kind = isRecord(transform) ? String(transform.kind) : '';
    if (!isRecord(transform) || !TRANSFORMS.has(kind)) throw bad(`${where} has a transform that is none of ${[...TRANSFORMS].join(', ')}`);
    if (kind === 'case' && !['upper', 'lower', 'title'].includes(String(transform.to)))
      throw bad(`${where} has a case transform whose 'to' is none of upper, lower, title`);
    if (kind === 'e164' && transform.country_code !== undefined && !/^\+?\d{1,3}$/.test(String(transform.country_code)))
      throw bad(`${where} has an E.164 transform whose country code '${String(transform.country_code)}' is not 1 to 3 digits`);
    if (kind === 'device-from-mac' && transform.prefix !== undefined && !/^[A-Za-z]{0,8}$/.test(String(transform.prefix)))
      throw bad(`${where} has a MAC transform whose prefix is not up to 8 letters`);
  }
}

/** A separator of joins and splits: some text, not a paragraph. */
function checkSeparator(separator: unknown, where: string, empty: boolean): void {
  if (typeof separator !== 'string' || separator.length > 10 || (!empty && separator === ''))
    throw bad(`${where} needs a 'separator' of ${empty ? '0' : '1'} to 10 characters`);
}

const MOST_HEADER = 1_000;
const isHeader = (value: unknown): value is string => typeof value === 'string' && value.length <= MOST_HEADER;

/** The mapping file's JSON, checked against its model; refused with what is wrong. */
export function readMapping(json: unknown): { mapping: MappingFile; model: ModelDef } {
  if (!isRecord(json) || typeof json.model !== 'string' || !Array.isArray(json.columns)) {
    throw bad("file must be a JSON object with 'model' (a model type) and 'columns' (a list)");
  }
  const model = findModel(json.model);
  if (!model) throw bad(`names the model '${json.model}', which does not exist`);
  const targets = new Map<string, string>();
  // One field, one source: a column, a constant, a join, a split's part or the sheet's name.
  const fill = (target: unknown, where: string): void => {
    if (typeof target !== 'string') throw bad(`${where} needs a 'target' (a field name)`);
    checkTarget(model, target, where);
    const first = targets.get(target);
    if (first !== undefined)
      throw bad(`fills '${target}' twice (from${first.replace(/^'s/, '')} and from${where.replace(/^'s/, '')}): one source per field`);
    targets.set(target, where);
  };
  json.columns.forEach((column: unknown, index) => {
    const where = `'s column ${index + 1}`;
    if (!isRecord(column) || !isHeader(column.header)) throw bad(`${where} needs a 'header' (the source column's header)`);
    if (column.target === null || column.target === undefined) return;
    fill(column.target, `${where} ('${column.header}')`);
    checkTransforms(column.transforms, `${where} ('${column.header}')`);
    if (
      column.values !== undefined &&
      (!isRecord(column.values) || Object.values(column.values).some((to) => typeof to !== 'string' && typeof to !== 'boolean'))
    )
      throw bad(`${where} ('${column.header}') has 'values' that are not an object of source value -> text or true/false`);
  });
  if (json.constants !== undefined && !isRecord(json.constants)) throw bad("'s constants must be an object of field -> value");
  for (const [target, value] of Object.entries(isRecord(json.constants) ? json.constants : {})) {
    fill(target, `'s constant for '${target}'`);
    if (typeof value !== 'string') throw bad(`'s constant for '${target}' must be text`);
  }
  for (const join of Array.isArray(json.joins) ? json.joins : []) {
    if (!isRecord(join) || !Array.isArray(join.headers) || join.headers.length < 1 || !join.headers.every(isHeader))
      throw bad("'s joins need a 'target' and 'headers' (the columns joined, in order)");
    checkSeparator(join.separator, `'s join into '${String(join.target)}'`, true);
    fill(join.target, `'s join into '${String(join.target)}'`);
  }
  for (const split of Array.isArray(json.splits) ? json.splits : []) {
    if (
      !isRecord(split) ||
      !isHeader(split.header) ||
      !Array.isArray(split.targets) ||
      split.targets.length < 2 ||
      split.targets.length > 10
    )
      throw bad("'s splits need a 'header' (the column cut) and 2 to 10 'targets' (a field name, or null, per part)");
    checkSeparator(split.separator, `'s split of '${split.header}'`, false);
    for (const target of split.targets) if (target !== null) fill(target, `'s split of '${split.header}'`);
  }
  if (json.sheet_name !== undefined) {
    if (!isRecord(json.sheet_name)) throw bad("'s sheet_name must be an object with a 'target'");
    fill(json.sheet_name.target, "'s sheet name");
    checkTransforms(json.sheet_name.transforms, "'s sheet name");
  }
  return { mapping: json as unknown as MappingFile, model };
}

/** The transforms a column's values call for: a MAC made a phone name, local numbers E.164, site names nodes. */
function transformsFor(column: SheetProposal['columns'][number]): MappingTransform[] | undefined {
  if (column.kind === 'mac') return [{ kind: 'device-from-mac' }];
  if (column.kind === 'local-number') return [{ kind: 'e164' }];
  if (column.target === '#Hierarchy Node' && column.kind !== 'hierarchy') return [{ kind: 'node' }];
  return undefined;
}

/** Each sheet's name made its rows' node: the node of that name below the chosen one. */
const SHEET_AS_NODE: MappingFile['sheet_name'] = { target: '#Hierarchy Node', transforms: [{ kind: 'node' }] };

/**
 * The proposal as a mapping file the user can edit and give back; with the chosen node, the rows
 * whose sheet names no node go to it, unless the sheets are named after places (`sheetsArePlaces`,
 * propose-workbook.ts's sheetsNamePlaces): then each sheet's name is its rows' node.
 */
export function mappingOf(proposal: SheetProposal, hierarchy?: string, sheetsArePlaces = false): MappingFile {
  const hasNode = proposal.columns.some((column) => column.target === '#Hierarchy Node');
  return {
    model: proposal.model,
    columns: proposal.columns.map((column) => {
      const transforms = transformsFor(column);
      return {
        header: column.header,
        target: column.target,
        ...(transforms ? { transforms } : {}),
        ...(column.values
          ? {
              values: Object.fromEntries(
                column.values.flatMap((value) => (value.to === null || value.to === value.value ? [] : [[value.value, value.to]])),
              ),
            }
          : {}),
      };
    }),
    ...(proposal.splits ? { splits: proposal.splits.map(({ header, separator, targets }) => ({ header, separator, targets })) } : {}),
    ...(sheetsArePlaces && !hasNode ? { sheet_name: SHEET_AS_NODE } : {}),
    ...(hierarchy !== undefined && !hasNode && !sheetsArePlaces ? { constants: { '#Hierarchy Node': hierarchy } } : {}),
  };
}
