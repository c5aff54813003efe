import { ApiError } from '../errors';
import { findModel } from '../models/registry';
import type { ModelDef } from '../models/types';
import { modelOfSheetName } from '../sheets/sheet-model';
import { proposeSheet, type SheetProposal } from './propose-columns';
import { sampleSheets } from './sheet-sample';
import { normalized } from './similarity';

/**
 * The mapping proposed for every sheet of a customer's file: what `workstation map` prints and
 * what the mapping step starts from. The model is the user's when given, else the sheet's name
 * when it names a loadable model, else the provisioning model its columns fill best.
 */
export const PROVISIONING_MODELS = [
  'relation/LineRelation',
  'relation/Bundle',
  'relation/Subscriber',
  'device/cucm/Phone',
  'data/InternalNumberInventory',
  'data/User',
];

export interface WorkbookProposal {
  sheets: (SheetProposal & { sheet: string; headerRow: number; sampled: number })[];
}

function sheetModel(name: string): ModelDef | undefined {
  try {
    return modelOfSheetName(name);
  } catch {
    return undefined;
  }
}

export async function proposeWorkbook(path: string, fileName: string, modelType?: string): Promise<WorkbookProposal> {
  const given = modelType === undefined ? undefined : findModel(modelType);
  if (modelType !== undefined && !given) {
    throw new ApiError(400, 'bad-parameter', `'${modelType}' is not a model: give a model type such as relation/LineRelation.`);
  }
  const candidates = PROVISIONING_MODELS.flatMap((type) => findModel(type) ?? []);
  const samples = await sampleSheets(path, fileName);
  if (samples.length === 0) throw new ApiError(400, 'empty-workbook', `${fileName} has no sheet with a value to map.`);
  return {
    sheets: samples.map((sample) => {
      const named = given ? undefined : sheetModel(sample.name);
      const chosen = given
        ? { model: given, reason: 'the model you chose' }
        : named
          ? { model: named, reason: `the sheet's name, '${sample.name}'` }
          : undefined;
      return {
        sheet: sample.name,
        headerRow: sample.headerRow,
        sampled: sample.sampled,
        ...proposeSheet(sample.columns, candidates, chosen),
      };
    }),
  };
}

/** A sheet's headers as one key, whatever their order and spelling of case and accents. */
const shapeOf = (sheet: WorkbookProposal['sheets'][number]): string =>
  sheet.columns
    .map((column) => normalized(column.header))
    .sort()
    .join('\u0000');

/**
 * A file with one sheet per site (`Paris`, `Lyon`, each with the same columns and no site
 * column): every sheet of the first sheet's shape is named after a place below the chosen node,
 * so each sheet's name is proposed as its rows' Hierarchy Node. Sheets named otherwise
 * (`Sheet1`, `Sheet2`) are not places, and the chosen node stays every row's.
 */
export function sheetsNamePlaces(proposal: WorkbookProposal, isPlace: (name: string) => boolean): boolean {
  const [first] = proposal.sheets;
  if (!first || first.columns.some((column) => column.target === '#Hierarchy Node')) return false;
  const alike = proposal.sheets.filter((sheet) => shapeOf(sheet) === shapeOf(first));
  return alike.length >= 2 && alike.every((sheet) => isPlace(sheet.sheet));
}
