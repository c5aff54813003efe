import { processOutput, type Output } from './cli-output';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { table } from './cli-table';
import { ApiError } from './service/errors';
import { storePlaces } from './cli-map-places';
import { defaultDataDir } from './data-dir';
import { createService } from './service';
import { isWithin } from './service/domain/hierarchy';
import { applyMapping } from './service/mapping/apply-mapping';
import type { MappingPlaces } from './service/mapping/mapping-places';
import { mappingOf, readMapping, type MappingFile } from './service/mapping/mapping-file';
import { proposeWorkbook, sheetsNamePlaces, type WorkbookProposal } from './service/mapping/propose-workbook';

/**
 * `workstation map <file.xlsx>`: the mapping proposed for a customer's sheet (its columns to the
 * fields of a model, with the confidence and the reason of each), read from the file alone:
 * nothing is staged or stored. Exit codes: 0 every required field has a column, 2 some required
 * field stays unmapped, or the file could not be read (the message says why).
 */
export const MAP_USAGE = `usage: workstation map <file.xlsx> [--model <type>] [--json] [--save <mapping.json>]
       workstation map <file.xlsx> --write <out.xlsx> [--mapping <mapping.json>] [--model <type>]
                       [--hierarchy <path>] [--data <dir>]

  --model    map to this model (e.g. relation/Bundle) instead of the one the columns fill best
  --json     the proposal as one JSON document on stdout
  --save     write the first sheet's proposal as a mapping file to edit (targets, value mappings,
             transforms, constants such as "#Hierarchy Node", joins, splits, sheet_name)
  --write    write the file, mapped, as a bulk-load workbook of the model: every sheet with the first
             sheet's columns (one per site) mapped, the columns left out on #source sheets, other
             sheets kept unloaded as #<name>: validate, plan or load it as any workbook
  --mapping  the mapping file to write with, instead of the proposal
  --hierarchy  the node the rows go to: a site column's names ('Paris') become the nodes of
             that name below it, local numbers take the country of their row's node, and rows
             naming no node go to it (the store of --data is read for these)
  exit       0 every required field is mapped, 2 a required field is not, or the file was refused`;

function proposalText(proposal: WorkbookProposal): string {
  return proposal.sheets
    .map((sheet) => {
      const rows = sheet.columns.map((column) => [
        String(column.column),
        column.header || '(no header)',
        column.target ?? '-',
        column.target ? `${Math.round(column.confidence * 100)}%` : '',
        column.reason,
      ]);
      const mapped = sheet.columns
        .filter((column) => column.values?.some((value) => value.to !== value.value))
        .map(
          (column) =>
            `values of '${column.header}' (${column.target ?? ''}):\n${table(
              ['value', 'rows', 'becomes', 'why'],
              (column.values ?? []).map((value) => [
                value.value,
                String(value.count),
                value.to === null ? '?' : String(value.to),
                value.reason,
              ]),
            )}`,
        )
        .join('');
      const splits = (sheet.splits ?? [])
        .map(
          (split) =>
            `split '${split.header}' at '${split.separator}' into ${split.targets.map((target) => target ?? '-').join(', ')}: ${split.reason}\n`,
        )
        .join('');
      const missing =
        sheet.unmappedRequired.length > 0
          ? `required, not mapped: ${sheet.unmappedRequired.join(', ')}\n`
          : 'every required field is mapped\n';
      return `sheet '${sheet.sheet}' (headers in row ${sheet.headerRow}): ${sheet.model}, from ${sheet.modelReason}\n${table(['col', 'header', 'field', 'sure', 'why'], rows)}${splits}${mapped}${missing}`;
    })
    .join('\n');
}

const OPTIONS = {
  model: { type: 'string' },
  json: { type: 'boolean', default: false },
  save: { type: 'string' },
  write: { type: 'string' },
  mapping: { type: 'string' },
  hierarchy: { type: 'string' },
  data: { type: 'string' },
} as const;
const parse = (args: string[]) => parseArgs({ args, allowPositionals: true, options: OPTIONS });

/** The first sheet's proposal as a mapping; with the store's places, sheets named after them give their rows' node. */
function proposedMapping(proposal: WorkbookProposal, hierarchy: string | undefined, places: MappingPlaces | undefined): MappingFile {
  const sheetsArePlaces = places !== undefined && sheetsNamePlaces(proposal, (name) => places.nodePath(name) !== undefined);
  return mappingOf(proposal.sheets[0], hierarchy, sheetsArePlaces);
}

/** The file written by a mapping (the given one, else the proposal's), as a bulk-load workbook. */
async function writeMapped(file: string, target: string, values: ReturnType<typeof parse>['values'], out: Output): Promise<number> {
  const mappingPath = values.mapping;
  const places = values.hierarchy === undefined ? undefined : await placesOf(values.hierarchy, values.data);
  const mapping =
    mappingPath !== undefined
      ? await mappingFileAt(mappingPath)
      : proposedMapping(await proposeWorkbook(resolve(file), basename(file), values.model), values.hierarchy, places);
  const { model } = readMapping(mapping);
  await writeFile(target, await applyMapping(resolve(file), basename(file), mapping, model, places));
  out.stdout(`${target}: ${basename(file)} mapped to ${model.modelType}; validate, plan or load it as any workbook\n`);
  return 0;
}

/**
 * The customer's file written through a mapping file into a folder of its own, under the same
 * name (messages and the staged workbook name the customer's file): what `validate`, `plan` and
 * `load` run on when given `--mapping`.
 */
export async function mappedCopy(
  file: string,
  mappingPath: string,
  hierarchy: string | undefined,
  dataDir: string | undefined,
  /** False for a push: its hierarchy is a node of the remote's mirror, not of the local store. */
  localPlaces = true,
): Promise<string> {
  const mapping = await mappingNamed(mappingPath, hierarchy, dataDir);
  const { model } = readMapping(mapping);
  // Kept in the data folder by what it was made from (the file, the mapping, the node): run again on
  // the same file, a command gets the same bytes, so an interrupted push or load is found and
  // resumed (cli-rerun.ts keys it by content), never staged anew.
  const key = createHash('sha256')
    .update(await readFile(resolve(file)))
    .update(JSON.stringify(mapping))
    .update(`${hierarchy ?? ''}\u0000${String(localPlaces)}`)
    .digest('hex')
    .slice(0, 32);
  const folder = join(dataDir ?? defaultDataDir(), 'mapped', key);
  const copy = join(folder, basename(file));
  if (existsSync(copy)) return copy;
  const places = hierarchy === undefined || !localPlaces ? undefined : await placesOf(hierarchy, dataDir);
  await mkdir(folder, { recursive: true });
  await writeFile(`${copy}.partial`, await applyMapping(resolve(file), basename(file), mapping, model, places));
  await rename(`${copy}.partial`, copy);
  return copy;
}

/**
 * `--mapping`: a mapping file (a path that exists, or ends in .json), else the name of a mapping
 * saved in the app for a customer (at `hierarchy` or above it when given; else the one of that
 * name, refused when several nodes hold one).
 */
async function mappingNamed(given: string, hierarchy: string | undefined, dataDir: string | undefined): Promise<MappingFile> {
  if (given.toLowerCase().endsWith('.json') || existsSync(given)) return mappingFileAt(given);
  const service = await createService({ dataDir: dataDir ?? defaultDataDir() });
  try {
    const { store } = service;
    const named = store.mappings.all().filter((record) => record.name === given);
    const pathOf = (pkid: string): string => store.nodes.get(pkid)?.path ?? '';
    const fitting = hierarchy === undefined ? named : named.filter((record) => isWithin(hierarchy, pathOf(record.node_pkid)));
    // The nearest node's first: the longest path at or above the hierarchy.
    fitting.sort((a, b) => pathOf(b.node_pkid).length - pathOf(a.node_pkid).length);
    if (fitting.length === 0)
      throw new Error(`no mapping file ${given} and no saved mapping named '${given}'${hierarchy ? ` at or above ${hierarchy}` : ''}`);
    if (hierarchy === undefined && fitting.length > 1)
      throw new Error(
        `saved mappings named '${given}' are at ${fitting.map((record) => pathOf(record.node_pkid)).join(' and ')}: give --hierarchy`,
      );
    return readMapping(JSON.parse(fitting[0].mapping)).mapping;
  } finally {
    service.close();
  }
}

async function mappingFileAt(mappingPath: string): Promise<MappingFile> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(mappingPath, 'utf8'));
  } catch (error) {
    throw new Error(`${mappingPath} is not a mapping file: ${error instanceof Error ? error.message : String(error)}`);
  }
  return readMapping(json).mapping;
}

/** The store's places below `hierarchy`, read once; the store is closed again at once. */
async function placesOf(hierarchy: string, dataDir: string | undefined): Promise<MappingPlaces> {
  const service = await createService({ dataDir: dataDir ?? defaultDataDir() });
  try {
    if (!service.store.nodes.getByPath(hierarchy)) throw new Error(`there is no node ${hierarchy} in the store`);
    return await storePlaces(service, hierarchy);
  } finally {
    service.close();
  }
}

export async function mapCommand(args: string[], out: Output = processOutput): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    out.stderr(`workstation map: ${error instanceof Error ? error.message : String(error)}\n${MAP_USAGE}\n`);
    return 2;
  }
  const [file] = parsed.positionals;
  if (!file || parsed.positionals.length > 1) {
    out.stderr(`${MAP_USAGE}\n`);
    return 2;
  }
  try {
    const { values } = parsed;
    if (values.write !== undefined) return await writeMapped(file, values.write, values, out);
    const proposal = await proposeWorkbook(resolve(file), basename(file), values.model);
    // The mapping is the first sheet's (and its like's, one per site): its required fields decide.
    const unmapped = proposal.sheets[0].unmappedRequired.length > 0;
    if (values.save !== undefined) {
      const places = values.hierarchy === undefined ? undefined : await placesOf(values.hierarchy, values.data);
      await writeFile(values.save, `${JSON.stringify(proposedMapping(proposal, values.hierarchy, places), null, 2)}\n`);
      out.stderr(`mapping of sheet '${proposal.sheets[0].sheet}' saved to ${values.save}\n`);
    }
    out.stdout(values.json ? `${JSON.stringify(proposal, null, 2)}\n` : proposalText(proposal));
    return unmapped ? 2 : 0;
  } catch (error) {
    const message = error instanceof ApiError || error instanceof Error ? error.message : String(error);
    out.stderr(`workstation map: ${message}\n`);
    return 2;
  }
}
