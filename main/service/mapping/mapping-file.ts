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

/** The mapping file's JSON, checked against its model; refused with what is wrong. */
export function readMapping(json: unknown): { mapping: MappingFile; model: ModelDef } {
  if (!isRecord(json) || typeof json.model !== 'string' || !Array.isArray(json.columns)) {
    throw bad("file must be a JSON object with 'model' (a model type) and 'columns' (a list)");
  }
  const model = findModel(json.model);
  if (!model) throw bad(`names the model '${json.model}', which does not exist`);
  const targets = new Set<string>();
  json.columns.forEach((column: unknown, index) => {
    const where = `column ${index + 1}`;
    if (!isRecord(column) || typeof column.header !== 'string') throw bad(`'s ${where} needs a 'header' (the source column's header)`);
    if (column.target === null) return;
    if (typeof column.target !== 'string') throw bad(`'s ${where} ('${column.header}') needs a 'target' (a field name, or null)`);
    checkTarget(model, column.target, `'s ${where} ('${column.header}')`);
    if (targets.has(column.target)) throw bad(`fills '${column.target}' from two columns: one column per field`);
    targets.add(column.target);
    for (const transform of Array.isArray(column.transforms) ? column.transforms : []) {
      if (!isRecord(transform) || !TRANSFORMS.has(String(transform.kind))) {
        throw bad(`'s ${where} ('${column.header}') has a transform that is none of ${[...TRANSFORMS].join(', ')}`);
      }
    }
  });
  for (const target of Object.keys(isRecord(json.constants) ? json.constants : {})) checkTarget(model, target, `'s constant`);
  for (const join of Array.isArray(json.joins) ? json.joins : []) {
    if (!isRecord(join) || typeof join.target !== 'string' || !Array.isArray(join.headers))
      throw bad("'s joins need a 'target' and 'headers'");
    checkTarget(model, join.target, `'s join`);
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

/**
 * The proposal as a mapping file the user can edit and give back; with the chosen node, the rows
 * whose sheet names no node go to it.
 */
export function mappingOf(proposal: SheetProposal, hierarchy?: string): MappingFile {
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
    ...(hierarchy !== undefined && !hasNode ? { constants: { '#Hierarchy Node': hierarchy } } : {}),
  };
}
