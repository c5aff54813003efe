import type { WorkbookInfo } from './workbook-api';

/**
 * A customer's sheet mapped onto a model (issue "Customer sheets in any shape"): the staged
 * workbook's mapping step, `/workstation/workbooks/<id>/mapping/`, and the mappings saved per
 * customer node, `/workstation/mappings/`. The shapes of service/mapping/, as they travel.
 */
export type MappingTransform =
  | { kind: 'trim' }
  /** `title` makes each word's first letter upper case and the rest lower (`JEAN-PIERRE DUPONT` -> `Jean-Pierre Dupont`). */
  | { kind: 'case'; to: 'upper' | 'lower' | 'title' }
  /**
   * A local number made E.164 with a country code (`01 40 00 10 50`, `33` -> `+33140001050`);
   * without one, the country of the row's node (mapping/mapping-places.ts).
   */
  | { kind: 'e164'; country_code?: string }
  /** A site's name made the path of the node of that name at or below the chosen node. */
  | { kind: 'node' }
  /** A MAC address made the phone's device name (`00:1B:54:AA:10:01` -> `SEP001B54AA1001`). */
  | { kind: 'device-from-mac'; prefix?: string };

export interface MappingColumnJson {
  header: string;
  /** A field name, `#Hierarchy Node`, `#Action`, `#CFT Template`, or null (kept on the `#source` sheet, not loaded). */
  target: string | null;
  transforms?: MappingTransform[];
  /** Source value -> the value written. */
  values?: Record<string, string | boolean>;
}

export interface MappingFileJson {
  model: string;
  columns: MappingColumnJson[];
  constants?: Record<string, string>;
  joins?: { target: string; headers: string[]; separator: string }[];
  /**
   * A column cut at a separator into several fields (`Jean Dupont` -> first name, last name): part
   * i fills `targets[i]` (null: not loaded), the last target takes the rest of the value.
   */
  splits?: { header: string; separator: string; targets: (string | null)[] }[];
  /**
   * The name of each sheet fills this field in its rows (a file with one sheet per site: the
   * sheet `Paris` as the Hierarchy Node), through the transforms given (`node`: the node of that name).
   */
  sheet_name?: { target: string; transforms?: MappingTransform[] };
}

export interface ValueProposalJson {
  value: string;
  count: number;
  to: string | boolean | null;
  reason: string;
}

export interface ColumnProposalJson {
  column: number;
  header: string;
  target: string | null;
  confidence: number;
  reason: string;
  kind: string | null;
  values?: ValueProposalJson[];
  /** Its first few distinct values. */
  samples: string[];
}

export interface SheetProposalJson {
  sheet: string;
  headerRow: number;
  sampled: number;
  model: string;
  modelReason: string;
  columns: ColumnProposalJson[];
  unmappedRequired: string[];
  /** A column of full names proposed cut into first and last names, with why. */
  splits?: { header: string; separator: string; targets: (string | null)[]; reason: string }[];
}

/** GET .../mapping/: what the mapping step shows. */
export interface WorkbookMappingAnswer {
  success: true;
  workbook: WorkbookInfo;
  file_name: string;
  /** Why the sheet needed a mapping: the loader's words about its headers or name. */
  reason: string;
  /** The first sheet's proposal (the sheet a mapping applies to), and the others'. */
  proposal: { sheets: SheetProposalJson[] };
  /** The mapping to confirm: a remembered one, the one applied, or the proposal's. */
  mapping: MappingFileJson;
  remembered: { id: number; name: string } | null;
  /** Required fields of the mapping's model that no column, constant or join fills. */
  unmapped_required: string[];
  /** True once a mapping was confirmed and the rows staged through it. */
  applied: boolean;
  /** The models a customer's sheet may be mapped to, with what a column may fill in each. */
  models: { model: string; title: string; targets: { name: string; title: string; required: boolean }[] }[];
}

/** POST .../mapping/preview/ with `{"mapping"}`: the first rows of the sheet as the mapping makes them. */
export interface MappingPreviewAnswer {
  success: true;
  /** The model sheet's headers. */
  names: string[];
  /** The customer's row number and the values the mapping makes, transforms applied. */
  rows: { row: number; values: (string | boolean | null)[] }[];
}

/** POST .../mapping/ */
export interface WorkbookMappingRequest {
  mapping: MappingFileJson;
  /** Saves the mapping under this name at the workbook's node, for the customer's next files. */
  save_as?: string;
}

export interface SavedMappingInfo {
  id: number;
  name: string;
  /** The customer's node it is saved at. */
  hierarchy: string;
  model: string;
  headers: string[];
  owner: string;
  updated_at: string;
}

/** GET /workstation/mappings/<id>/: the export, which POST /workstation/mappings/ takes back. */
export interface SavedMappingFile {
  name: string;
  hierarchy: string;
  headers: string[];
  mapping: MappingFileJson;
}

/**
 * The fields a mapping fills, from every source it has (its columns, constants, joins, the parts
 * of its splits and the sheet's name): what decides which required fields stay unfilled, in the
 * service and in the mapping step alike.
 */
export function mappingFills(mapping: MappingFileJson): Set<string> {
  return new Set([
    ...mapping.columns.flatMap((column) => (column.target === null ? [] : [column.target])),
    ...Object.keys(mapping.constants ?? {}),
    ...(mapping.joins ?? []).map((join) => join.target),
    ...(mapping.splits ?? []).flatMap((split) => split.targets.flatMap((target) => (target === null ? [] : [target]))),
    ...(mapping.sheet_name ? [mapping.sheet_name.target] : []),
  ]);
}
