import { ApiError } from '../errors';
import { hasAction } from '../models/actions';
import { ALL_MODELS } from '../models/registry';
import type { ModelDef } from '../models/types';
import type { SheetDirective } from './sheet-types';

/**
 * Which model a sheet loads: the directive's `entity` (directive layout), else the sheet name
 * (compact layout): the model type with `/` written as `_` or `.` (`relation_LineRelation`),
 * or a model name unique in the registry (`LineRelation`). Names compare case-insensitively,
 * and the ` (2)` Excel appends to a copied sheet is ignored.
 */
const typeKey = (text: string): string => text.trim().replace(/[_./]/g, '/').toLowerCase();

function modelNamed(text: string): ModelDef | undefined {
  const key = typeKey(text);
  const byType = ALL_MODELS.find((model) => model.modelType.toLowerCase() === key);
  if (byType) return byType;
  const byName = ALL_MODELS.filter((model) => model.modelType.split('/').pop()?.toLowerCase() === key);
  return byName.length === 1 ? byName[0] : undefined;
}

/** Only models with instances and a create action take rows. */
function loadable(model: ModelDef, sheet: string, cell: string): ModelDef {
  if (model.storage !== 'instances' || !hasAction(model.actions, 'create')) {
    throw new ApiError(
      400,
      'bad-sheet',
      `Sheet '${sheet}'${cell}: ${model.modelType} cannot be bulk loaded; load data, device or relation models.`,
    );
  }
  return model;
}

export function modelOfSheetName(sheet: string): ModelDef {
  const model = modelNamed(sheet.replace(/\s*\(\d+\)$/, ''));
  if (!model) {
    throw new ApiError(
      400,
      'bad-sheet',
      `Sheet '${sheet}': the sheet name is not a model (e.g. relation_LineRelation or LineRelation) and cell A1 holds no 'entity:' directive; rename the sheet after its model, or start the sheet with a directive.`,
    );
  }
  return loadable(model, sheet, '');
}

const DIRECTIVE_KEYS = ['entity', 'hierarchy', 'parallel', 'evaluate_macros', 'template'];

function flagOf(sheet: string, key: string, value: string): boolean {
  const word = value.trim().toLowerCase();
  if (['true', 'yes', '1'].includes(word)) return true;
  if (['false', 'no', '0', ''].includes(word)) return false;
  throw new ApiError(400, 'bad-directive', `Sheet '${sheet}', cell A1: ${key} must be true or false, not '${value.trim()}'.`);
}

export const isDirective = (a1: string): boolean => /^\s*entity\s*:/i.test(a1);

/** `entity: relation/LineRelation; hierarchy: sys.hcs; parallel: false; template: Acme` */
export function parseDirective(sheet: string, a1: string): { directive: SheetDirective; model: ModelDef } {
  const values = new Map<string, string>();
  for (const part of a1.split(';')) {
    if (part.trim() === '') continue;
    const colon = part.indexOf(':');
    const key = (colon < 0 ? part : part.slice(0, colon)).trim().toLowerCase().replace(/\s+/g, '_');
    if (colon < 0 || !DIRECTIVE_KEYS.includes(key)) {
      throw new ApiError(
        400,
        'bad-directive',
        `Sheet '${sheet}', cell A1: '${part.trim()}' is not a directive; write key: value pairs with the keys ${DIRECTIVE_KEYS.join(', ')}, separated by ';'.`,
      );
    }
    values.set(key, part.slice(colon + 1).trim());
  }
  const entity = values.get('entity') ?? '';
  const model = modelNamed(entity);
  if (!model)
    throw new ApiError(
      400,
      'bad-directive',
      `Sheet '${sheet}', cell A1: entity '${entity}' is not a model type served here (e.g. relation/LineRelation).`,
    );
  const directive: SheetDirective = {
    entity: model.modelType,
    parallel: flagOf(sheet, 'parallel', values.get('parallel') ?? ''),
    evaluateMacros: flagOf(sheet, 'evaluate_macros', values.get('evaluate_macros') ?? ''),
  };
  if (values.get('hierarchy')) directive.hierarchy = values.get('hierarchy');
  if (values.get('template')) directive.template = values.get('template');
  return { directive, model: loadable(model, sheet, ', cell A1') };
}
