import type { JsonObject } from '../api-types';
import { hashPasswordSync } from '../auth/passwords';
import { businessKeyOf } from '../domain/business-key';
import { isWithin } from '../domain/hierarchy';
import { keyValues } from '../domain/rules/keys';
import { versionOf } from '../domain/instance-version';
import { labelOf, requireInstance, requireNode } from '../domain/instance-ops';
import type { Store } from '../domain/store';
import { ApiError, notFound } from '../errors';
import { requireModel } from '../models/registry';
import type { ModelDef } from '../models/types';
import { guardInstance, guardNode, resolveForCaller, type Caller } from '../domain/guards';
import { prepareCreate, prepareModify, takeWriteOnly } from '../domain/prepare-change';
import type { ParsedRow, ParsedSheet } from '../sheets/sheet-types';
import { newPkid } from '../store/ids';
import type { InstanceRecord } from '../store/instances-repo';
import type { NodeRow } from '../store/nodes-repo';
import type { TxResult, TxSpec } from '../transactions/engine';
import type { StepContext } from '../transactions/step-context';
import type { TemplateFinder } from '../templates/configuration-template';
import { WORKFLOWS } from '../transactions/workflows';
import { restoreImages } from '../domain/restore-images';

/**
 * One bulk-load row as one transaction: the same template, validation, permission checks and
 * workflow as a POST, PUT or DELETE of that instance. Everything is decided when the row runs,
 * so a row may modify what an earlier row of the same load created; a failing row is rolled
 * back alone.
 */
export interface RowSource {
  store: Store;
  caller: Caller;
  sheet: ParsedSheet;
  row: ParsedRow;
  /** The load's hierarchy, for rows and sheets that name none. */
  defaultPath: string;
  /** How templates are found: a load caches them for one batch (load-run.ts). */
  findTemplate?: TemplateFinder;
}

const ACTION_WORD = { add: 'Create', modify: 'Modify', delete: 'Delete' } as const;

export function rowTransaction(source: RowSource): TxSpec {
  const head = rowHead(source.store, source.caller.principal.username, source.sheet, source.row, source.defaultPath);
  const model = requireModel(source.sheet.modelType);
  const recorded = recordedWithin(source.store, head, source.caller.callerPath, source.defaultPath);
  // The row runs at the node it names; only its record may be placed elsewhere. `recorded` is
  // this row's own object: `run` goes onto it, where a spread with a key its source lacks cost
  // about 0.45 µs on Node 20's V8, once for every row of a load.
  return Object.assign(recorded, {
    run: (steps: Parameters<TxSpec['run']>[0]) => runRow(steps, source, model, head.hierarchyPath, head.resourcePkid),
  });
}

/**
 * Where a row's sub-transaction is recorded: at the node the row names when that lies within
 * `reach`, else at the load's own node, so a row naming another site (refused, or never run)
 * never shows up among that site's transactions.
 */
export function recordedWithin(store: Store, head: Omit<TxSpec, 'run'>, reach: string, loadPath: string): Omit<TxSpec, 'run'> {
  const named = head.hierarchyPath;
  const path =
    store.nodes.getByPath(named)?.path ?? store.nodes.get(named)?.path ?? (named.includes('.') || named === 'sys' ? named : undefined);
  if (path !== undefined && isWithin(path, reach)) return head;
  return { ...head, hierarchyPkid: store.nodes.getByPath(loadPath)?.pkid ?? null, hierarchyPath: loadPath };
}

/** What a row's sub-transaction says before it runs: its action, detail, model and place. */
export function rowHead(store: Store, username: string, sheet: ParsedSheet, row: ParsedRow, defaultPath: string): Omit<TxSpec, 'run'> {
  const model = requireModel(sheet.modelType);
  const path = row.hierarchy ?? sheet.directive.hierarchy ?? defaultPath;
  // A revert's add makes the instance again under the pkid it had: references to it hold again.
  const pkid = row.action === 'add' ? (row.recreate && row.pkid ? row.pkid : newPkid()) : (row.pkid ?? null);
  return {
    username,
    action: ACTION_WORD[row.action],
    detail:
      `Row ${row.rowNumber} of sheet '${sheet.name}': ${ACTION_WORD[row.action]} ${model.modelType} ${labelOf(model, row.data)}`.trim(),
    modelType: model.modelType,
    hierarchyPkid: store.nodes.getByPath(path)?.pkid ?? null,
    hierarchyPath: path,
    resourcePkid: pkid,
  };
}

function runRow(steps: StepContext, source: RowSource, model: ModelDef, path: string, pkid: string | null): TxResult {
  const { store, caller, sheet, row } = source;
  if (row.badAction !== undefined) {
    throw new ApiError(
      400,
      'bad-action',
      `Row ${row.rowNumber}: Action '${row.badAction}' is not add, modify or delete; the row was not run.`,
    );
  }
  if (row.readErrors) {
    throw new ApiError(
      400,
      'validation-failed',
      `Row ${row.rowNumber}: ${row.readErrors} cell(s) could not be read (see the validation of this workbook); the row was not run.`,
    );
  }
  const node = resolveForCaller(caller, store.nodes, path);
  const template = row.template ?? sheet.directive.template;
  const query = new URLSearchParams(template ? { template_name: template } : {});
  const workflow = WORKFLOWS[model.workflow];
  if (row.action === 'add') {
    guardNode(caller, node, 'create');
    if (row.recreate && pkid !== null && store.instances.get(pkid)) {
      throw new ApiError(
        409,
        'plan-conflict',
        `Row ${row.rowNumber}: ${model.title} ${pkid} exists again since the load; it is not made twice.`,
      );
    }
    const data = prepareCreate(store, caller, model, node, row.data, query, source.findTemplate);
    const previousLinks = row.recreate ? row.restore?.before?.links : undefined;
    const made = workflow.create(steps, {
      store,
      model,
      node,
      pkid: pkid ?? newPkid(),
      data,
      secrets: secretsOf(model, data),
      previousLinks,
    });
    return restored(steps, store, row, made);
  }
  const existing = row.expect?.pkid ? plannedTarget(store, model, node, row, row.expect) : targetOf(store, model, node, row);
  const current = requireNode(store, existing.hierarchyPkid);
  if (row.action === 'delete') {
    guardInstance(caller, store, existing, 'delete');
    return restored(steps, store, row, workflow.remove(steps, { store, model, existing }));
  }
  guardInstance(caller, store, existing, 'update');
  const data = prepareModify(store, caller, model, existing, current, current, row.data, query, source.findTemplate);
  return restored(
    steps,
    store,
    row,
    workflow.modify(steps, { store, model, node: current, existing, data, secrets: secretsOf(model, data) }),
  );
}

/** A revert's row: what its workflow made is put back exactly as it was before the load, where it can be (domain/restore-images.ts). */
function restored(steps: StepContext, store: Store, row: ParsedRow, result: TxResult): TxResult {
  const restore = row.restore;
  if (restore) steps.step('Put back exactly as before the load', () => restoreImages(store, result.resourcePkid, restore, row.data));
  return result;
}

/** The instance a modify or delete row means: by its pkid column, else by business key. */
function targetOf(store: Store, model: ModelDef, node: NodeRow, row: ParsedRow): InstanceRecord {
  if (row.pkid) return requireInstance(store, row.pkid, model.modelType);
  const keyFields = model.businessKey.fields;
  // A key field left out falls back to its default (an empty route partition is a real key).
  const missing = keyFields.filter((field) => row.data[field] === undefined && model.fields[field]?.default === undefined);
  if (missing.length > 0) {
    throw new ApiError(
      400,
      'validation-failed',
      `Row ${row.rowNumber}: a ${row.action} needs the pkid column or ${keyFields.map((field) => model.fields[field]?.title ?? field).join(' and ')} to find the instance.`,
    );
  }
  const found = store.instances.findByKey(model.modelType, businessKeyOf(model, row.data, node.pkid))[0];
  if (!found) {
    throw notFound(`Row ${row.rowNumber}: no ${model.title} with ${keyValues(model, row.data)} at ${node.path} to ${row.action}.`);
  }
  return found;
}

/**
 * The target a plan saw, if it is still what the plan saw: another instance under the key, one
 * deleted, or one changed since is a conflict for this row alone (the others run).
 */
function plannedTarget(
  store: Store,
  model: ModelDef,
  node: NodeRow,
  row: ParsedRow,
  expect: { pkid: string; version: string },
): InstanceRecord {
  let found: InstanceRecord | undefined;
  try {
    found = targetOf(store, model, node, row);
  } catch (error) {
    if (!(error instanceof ApiError) || error.httpCode !== 404) throw error;
  }
  const what = `${model.title} ${expect.pkid}`;
  if (!found || found.pkid !== expect.pkid) {
    throw new ApiError(
      409,
      'plan-conflict',
      `Row ${row.rowNumber}: ${what} was deleted or replaced since the plan; plan the workbook again.`,
    );
  }
  if (versionOf(found) !== expect.version) {
    throw new ApiError(
      409,
      'plan-conflict',
      `Row ${row.rowNumber}: ${what} was changed since the plan; plan the workbook again to see its changes.`,
    );
  }
  return found;
}

/** A row runs inside its synchronous transaction, so its password is hashed there. */
function secretsOf(model: ModelDef, data: JsonObject): Record<string, string> {
  const secrets = takeWriteOnly(model, data);
  for (const [name, value] of Object.entries(secrets)) secrets[name] = hashPasswordSync(value);
  return secrets;
}
