import { mappingFills, type MappingFileJson, type SavedMappingInfo, type WorkbookMappingAnswer } from '../contract/mapping-api';
import type { Store } from '../domain/store';
import { ApiError } from '../errors';
import { mappingOf, type MappingFile } from '../mapping/mapping-file';
import { mappingPlaces } from '../mapping/mapping-places';
import { PROVISIONING_MODELS, sheetsNamePlaces, type WorkbookProposal } from '../mapping/propose-workbook';
import { mappingTargets, requiredOf } from '../mapping/propose-columns';
import { normalized } from '../mapping/similarity';
import type { ModelDef } from '../models/types';
import type { SavedMappingRecord } from '../store/mappings-repo';
import type { NodeRow } from '../store/nodes-repo';

/**
 * A customer's sheet that the loader would refuse for its headers or its name (issue "Customer
 * sheets in any shape", point 1) is never refused at staging: the workbook waits in the
 * `mapping` state with the proposal for its columns, and starts from a mapping saved at the
 * customer's node for the same or similar headers when there is one (point 5). Confirmed, the
 * mapping rewrites the customer's file as a compact sheet of the model (apply-mapping.ts), which
 * is staged as any file, the unmapped columns kept on a `#source` sheet.
 */

/** The loader's refusals a mapping answers: headers that name no field, two headers for one, a sheet named after no model. */
export function needsMapping(error: unknown): error is ApiError {
  if (!(error instanceof ApiError)) return false;
  if (error.code === 'unknown-column' || error.code === 'duplicate-column') return true;
  // sheet-model.ts's refusal of a sheet whose name names no model (and no directive in A1).
  return error.code === 'bad-sheet' && error.message.includes('the sheet name is not a model');
}

/** How alike two header lists are, whatever their order: shared headers over all headers (1 is the same set). */
function headerLikeness(a: readonly string[], b: readonly string[]): number {
  const left = new Set(a.map(normalized).filter((header) => header !== ''));
  const right = new Set(b.map(normalized).filter((header) => header !== ''));
  const shared = [...left].filter((header) => right.has(header)).length;
  const all = new Set([...left, ...right]).size;
  return all === 0 ? 0 : shared / all;
}

/** A saved mapping is proposed for headers at least this alike. */
const LIKE_ENOUGH = 0.8;

/** The nodes a saved mapping may come from: the workbook's node and those above it, nearest first. */
function nodeAndAbove(store: Store, node: NodeRow): NodeRow[] {
  const found: NodeRow[] = [];
  for (let at: NodeRow | undefined = node; at; at = at.parent_pkid ? store.nodes.get(at.parent_pkid) : undefined) found.push(at);
  return found;
}

/** The saved mapping for these headers at the node or above: the most alike, then the nearest. */
export function rememberedFor(store: Store, node: NodeRow, headers: readonly string[]): SavedMappingRecord | undefined {
  let best: { record: SavedMappingRecord; likeness: number } | undefined;
  for (const at of nodeAndAbove(store, node)) {
    for (const record of store.mappings.savedAt([at.pkid])) {
      const likeness = headerLikeness(headers, JSON.parse(record.headers) as string[]);
      if (likeness >= LIKE_ENOUGH && (!best || likeness > best.likeness)) best = { record, likeness };
    }
  }
  return best?.record;
}

/**
 * A saved mapping made fit for a file whose headers are in another order, or a few of them
 * other: each of the file's columns takes the saved entry of the same header (compared as the
 * proposals compare them), else stays unmapped; the saved constants and joins are kept where
 * their columns are there.
 */
export function fittedMapping(saved: MappingFile, headers: readonly string[]): MappingFile {
  const byHeader = new Map(saved.columns.map((column) => [normalized(column.header), column]));
  // The file's own spelling of each header, for the joins and splits that name them.
  const spelled = new Map(headers.map((header) => [normalized(header), header]));
  const inFile = (header: string): string | undefined => spelled.get(normalized(header));
  return {
    model: saved.model,
    columns: headers.map((header) => {
      const entry = byHeader.get(normalized(header));
      return entry ? { ...entry, header } : { header, target: null };
    }),
    ...(saved.constants ? { constants: saved.constants } : {}),
    ...(saved.joins
      ? {
          joins: saved.joins.flatMap((join) => {
            const found = join.headers.map(inFile);
            return found.every((header) => header !== undefined) ? [{ ...join, headers: found as string[] }] : [];
          }),
        }
      : {}),
    ...(saved.splits
      ? {
          splits: saved.splits.flatMap((split) =>
            inFile(split.header) === undefined ? [] : [{ ...split, header: inFile(split.header) as string }],
          ),
        }
      : {}),
    ...(saved.sheet_name ? { sheet_name: saved.sheet_name } : {}),
  };
}

/** The most nodes read to tell whether the sheets are named after places. */
const PLACES_READ = 20_000;

/** The mapping a workbook's step starts from: a remembered one fitted to the file, else the proposal's. */
export function startingMapping(
  store: Store,
  node: NodeRow,
  proposal: WorkbookProposal,
): { mapping: MappingFile; remembered: SavedMappingRecord | undefined } {
  const [first] = proposal.sheets;
  const headers = first.columns.map((column) => column.header);
  const remembered = rememberedFor(store, node, headers);
  if (remembered) return { mapping: fittedMapping(JSON.parse(remembered.mapping) as MappingFile, headers), remembered };
  const places = mappingPlaces({ nodes: store.nodes.namesAtOrBelow(node.path, PLACES_READ), lines: [], numbers: [], countryCodes: [] });
  const sheetsArePlaces = sheetsNamePlaces(proposal, (name) => places.nodePath(name) !== undefined);
  return { mapping: mappingOf(first, node.path, sheetsArePlaces), remembered: undefined };
}

/**
 * A mapping confirmed for a file must name its columns by headers the file has, once each: a
 * header it lacks, or one it has twice (which the mapping cannot tell apart), is refused with 400
 * before anything changes.
 */
export function checkMappingFits(mapping: MappingFile, proposal: WorkbookProposal, fileName: string): void {
  const columns = proposal.sheets[0]?.columns ?? [];
  const count = (header: string): number => columns.filter((column) => column.header.trim() === header.trim()).length;
  // Joined and split columns are named by header too.
  const joined = [...(mapping.joins ?? []).flatMap((join) => join.headers), ...(mapping.splits ?? []).map((split) => split.header)];
  const missing = [...mapping.columns.map((column) => column.header), ...joined].find((header) => count(header) === 0);
  if (missing !== undefined)
    throw new ApiError(400, 'validation-failed', `The mapping names the column '${missing}', which ${fileName} does not have.`, [
      { field: 'mapping', message: `no column '${missing}'` },
    ]);
  const used = [...mapping.columns.filter((column) => column.target !== null).map((column) => column.header), ...joined];
  const twin = used.find((header) => count(header) > 1);
  if (twin !== undefined)
    throw new ApiError(
      400,
      'duplicate-column',
      `${fileName} has two columns headed '${twin}': rename one in the file and stage it again, or leave both out of the mapping.`,
    );
}

/** The model's required fields the mapping leaves empty: no column, constant or join fills them (and they have no default). */
export function unmappedRequired(mapping: MappingFile, model: ModelDef | undefined): string[] {
  if (!model) return [];
  const filled = mappingFills(mapping);
  return requiredOf(model).filter((name) => !filled.has(name));
}

/** What GET .../mapping/ answers, the workbook's own part given. */
export function mappingAnswer(
  store: Store,
  wb: number,
  workbook: WorkbookMappingAnswer['workbook'],
  model: (type: string) => ModelDef | undefined,
): WorkbookMappingAnswer {
  const found = store.mappings.workbookMapping(wb);
  if (!found) throw new ApiError(409, 'no-mapping', 'This workbook was staged from a sheet in our layout: it has no mapping to show.');
  const mapping = JSON.parse(found.mapping) as MappingFileJson;
  const remembered = found.remembered === null ? undefined : store.mappings.saved(found.remembered);
  return {
    success: true,
    workbook,
    file_name: found.file_name,
    reason: found.reason,
    proposal: JSON.parse(found.proposal) as WorkbookMappingAnswer['proposal'],
    mapping,
    remembered: remembered ? { id: remembered.id, name: remembered.name } : null,
    unmapped_required: unmappedRequired(mapping as MappingFile, model(mapping.model)),
    applied: found.applied === 1,
    models: PROVISIONING_MODELS.flatMap((type) => {
      const def = model(type);
      return def ? [{ model: type, title: def.title, targets: mappingTargets(def) }] : [];
    }),
  };
}

export function savedInfo(store: Store, record: SavedMappingRecord): SavedMappingInfo {
  return {
    id: record.id,
    name: record.name,
    hierarchy: store.nodes.get(record.node_pkid)?.path ?? '',
    model: record.model_type,
    headers: JSON.parse(record.headers) as string[],
    owner: record.owner,
    updated_at: record.updated_at,
  };
}
