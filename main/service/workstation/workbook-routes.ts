import { writeFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isJsonObject, type ApiResponse, type JsonObject } from '../api-types';
import { assertRole } from '../auth/access';
import type { PlanAction, WorkbookAnswer, WorkbookList, WorkbookLoadAnswer, WorkbookSource } from '../contract/workbook-api';
import { guardNode } from '../domain/guards';
import { resolveHierarchy } from '../domain/hierarchy';
import { ownedUpload } from '../domain/owned-upload';
import { ApiError, badParameter, notFound } from '../errors';
import type { RequestContext } from '../request-context';
import { parseBoolean } from '../list/list-params';
import { json } from '../responses';
import { XLSX_TYPE } from '../sheets/write-workbook';
import type { NodeRow } from '../store/nodes-repo';
import type { Who } from '../workbooks/staged-workbooks';
import { issuesFile } from '../workbooks/issues-file';
import { saveWorkbook } from '../workbooks/workbook-save';
import { planPage } from '../workbooks/workbook-run-views';
import { compileCellPattern, type CellPattern } from '../workbooks/cell-pattern';
import { issueList, rowPage, workbookInfo } from '../workbooks/workbook-views';
import { bad, bodyOf, checkFieldTypes } from './body-fields';
import { methodNotAllowed, type WorkstationDeps, type WorkstationRouteGroup } from './route-group';
import { usableProfile } from './profile-access';
import { readMapping } from '../mapping/mapping-file';
import type { MappingPreviewAnswer } from '../contract/mapping-api';
import { findModel } from '../models/registry';
import { mappingAnswer } from '../workbooks/workbook-mapping';

/**
 * `/workstation/workbooks/`: staged workbooks (README: Staged workbooks). Every endpoint needs
 * the bulkload role; a workbook is its owner's, and admins at or above the owner's node may see
 * it (anyone else gets 404). Shapes: `../contract/workbook-api.ts`.
 */
const whoOf = (ctx: RequestContext): Who => ({ principal: ctx.principal, callerPath: ctx.callerPath });

function text(body: JsonObject, name: string, required = true): string | undefined {
  const value = body[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > 1000) throw bad(`'${name}' must be given, as text.`, name);
  return value;
}

const SEARCH_DIRECTION_FLAGS: Record<string, string | undefined> = {
  local: 'hierarchy_shallow',
  up: 'hierarchy_paths',
  all: 'hierarchy_all',
};

/** The API request whose answer (an .xlsx) a generated workbook starts from; the export viewer reads the same. */
/**
 * Makes a generator's .xlsx (a template, an export, a search's export) as the caller, through the
 * API's own routes, into a file of its own in the uploads folder (`<random>.<use>.xlsx`); the
 * caller removes it. A refusal answers as the generator's own fault.
 */
export async function generatedFile(
  deps: WorkstationDeps,
  ctx: RequestContext,
  request: GeneratorRequest,
  use: string,
  failCode: string,
  failMessage: string,
): Promise<string> {
  const answer = await deps.apiAs(ctx.principal, {
    method: request.method,
    url: request.url,
    headers: { 'content-type': 'application/json' },
    body: request.body,
  });
  if (answer.status !== 200 || typeof answer.body === 'string') {
    const fault = typeof answer.body === 'string' ? (JSON.parse(answer.body) as { code?: string; message?: string }) : {};
    throw new ApiError(answer.status, fault.code ?? failCode, fault.message ?? failMessage);
  }
  const path = join(deps.store.uploads.folder, `${randomBytes(12).toString('hex')}.${use}.xlsx`);
  await writeFile(path, answer.body);
  return path;
}

export interface GeneratorRequest {
  method: string;
  url: string;
  body?: string;
  name: string;
}

export function generatorRequest(body: JsonObject, node: NodeRow): GeneratorRequest {
  const hierarchy = encodeURIComponent(node.path);
  if (body.from === 'search') {
    const query = text(body, 'query') as string;
    // The search's reach beyond looking down (the default): its flag goes in the query, as the Search view sends it.
    const flag = SEARCH_DIRECTION_FLAGS[String(body.direction)];
    return {
      method: 'POST',
      url: `/api/export/export_data/?url=/api/tool/Search/&hierarchy=${hierarchy}${flag ? `&${flag}=true` : ''}`,
      body: JSON.stringify({ query, export_data_type: 'formatted' }),
      name: 'search.xlsx',
    };
  }
  const model = text(body, 'model_type') as string;
  if (!/^[a-z]+\/(cucm\/)?[A-Za-z]+$/.test(model))
    throw bad(`'model_type' must be a model type such as relation/LineRelation.`, 'model_type');
  const short = model.split('/').pop() as string;
  if (body.from === 'template') {
    const params = new URLSearchParams({ hierarchy: node.path });
    for (const name of ['template', 'template_name', 'policy', 'policy_name'] as const) {
      const value = text(body, name, false);
      if (value !== undefined) params.set(name, value);
    }
    return { method: 'GET', url: `/api/${model}/export_bulkload_template/?${params.toString()}`, name: `${short}-template.xlsx` };
  }
  if (body.hrefs !== undefined) {
    return {
      method: 'POST',
      url: `/api/${model}/export/?hierarchy=${hierarchy}`,
      body: JSON.stringify({ hrefs: body.hrefs }),
      name: `${short}-export.xlsx`,
    };
  }
  const params = new URLSearchParams({ hierarchy: node.path });
  if (body.filter !== undefined) {
    if (!isJsonObject(body.filter)) throw bad("'filter' must be an object of list parameters.", 'filter');
    for (const [name, value] of Object.entries(body.filter)) if (typeof value === 'string') params.set(name, value);
  }
  return { method: 'POST', url: `/api/${model}/export/?${params.toString()}`, body: '{}', name: `${short}-export.xlsx` };
}

/**
 * A workbook for a remote profile (`profile`): staged here from an uploaded file, and checked
 * against the profile's mirror at one of its nodes (the mirror's home node when none is named),
 * so that it can be prepared with no network and pushed later (sync push).
 */
function createForProfile(deps: WorkstationDeps, ctx: RequestContext, body: JsonObject, profile: string): ApiResponse {
  const row = usableProfile(deps, ctx, profile);
  if (body.from !== 'upload') throw bad("A workbook for a remote profile is staged from an uploaded file: 'from' must be upload.", 'from');
  const mirror = deps.mirrors.mirrorOf(row.pkid);
  if (!mirror)
    throw new ApiError(
      409,
      'mirror-missing',
      `${row.name} has no mirror yet: pull it first (sync pull ${row.name}), while the remote can be reached.`,
    );
  const node = resolveHierarchy(mirror.store.nodes, typeof body.hierarchy === 'string' ? body.hierarchy : mirror.caller.callerPath);
  const upload = ownedUpload(deps.store, whoOf(ctx), text(body, 'file') as string);
  const record = deps.workbooks.stageFile(
    whoOf(ctx),
    node,
    deps.store.uploads.pathOf(upload.id),
    upload.name,
    'upload',
    undefined,
    row.pkid,
  );
  return json(202, { success: true, workbook: workbookInfo(deps, record) } satisfies WorkbookAnswer);
}

/** The fields a new workbook's body may hold, by type (body-fields.ts). */
const CREATE_FIELDS = {
  from: 'string',
  file: 'string',
  hierarchy: 'string',
  name: 'string',
  profile: ['string', 'null'],
  model_type: 'string',
  template: 'string',
  template_name: 'string',
  policy: 'string',
  policy_name: 'string',
  query: 'string',
  direction: 'string',
  hrefs: 'array',
  filter: 'object',
} as const;

async function create(deps: WorkstationDeps, ctx: RequestContext): Promise<ApiResponse> {
  const body = bodyOf(ctx);
  checkFieldTypes(body, CREATE_FIELDS);
  if (body.profile !== undefined && body.profile !== null) {
    if (typeof body.profile !== 'string') throw bad("'profile' must be the name or id of a remote profile.", 'profile');
    return createForProfile(deps, ctx, body, body.profile);
  }
  const from = body.from;
  const node = resolveHierarchy(deps.store.nodes, typeof body.hierarchy === 'string' ? body.hierarchy : null);
  guardNode(ctx, node, 'bulkload');
  if (from === 'upload') {
    const upload = ownedUpload(deps.store, whoOf(ctx), text(body, 'file') as string);
    const path = deps.store.uploads.pathOf(upload.id);
    const record = deps.workbooks.stageFile(whoOf(ctx), node, path, upload.name, 'upload', undefined, null, upload.id);
    return json(202, { success: true, workbook: workbookInfo(deps, record) } satisfies WorkbookAnswer);
  }
  if (from !== 'template' && from !== 'export' && from !== 'search') {
    throw bad(`'from' must be upload, template, export or search.`, 'from');
  }
  const request = generatorRequest(body, node);
  const path = await generatedFile(deps, ctx, request, 'stage', 'generator-failed', 'The workbook could not be generated.');
  const name = typeof body.name === 'string' && body.name.trim() !== '' ? body.name.slice(0, 255) : request.name;
  const source: WorkbookSource = from === 'template' ? 'template' : 'export';
  const record = deps.workbooks.stageFile(whoOf(ctx), node, path, name, source, () => void unlink(path).catch(() => undefined));
  return json(202, { success: true, workbook: workbookInfo(deps, record) } satisfies WorkbookAnswer);
}

function intParam(ctx: RequestContext, name: string, fallback: number, max: number): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) > max) throw bad(`'${name}' must be a whole number from 0 to ${max}.`, name);
  return Number(raw);
}

/** The row filter's `find`: a plain text, or with `regex=true` a pattern run in bounded time (cell-pattern.ts). */
function findParam(ctx: RequestContext): CellPattern | undefined {
  const find = ctx.query.get('find');
  if (find === null || find === '') return undefined;
  return compileCellPattern(find, {
    regex: parseBoolean(ctx.query, 'regex', false),
    matchCase: false,
    field: 'find',
    code: 'validation-failed',
  });
}

async function rows(deps: WorkstationDeps, ctx: RequestContext, id: string, sheet: string): Promise<ApiResponse> {
  const record = deps.workbooks.find(whoOf(ctx), id);
  if (!/^\d{1,4}$/.test(sheet)) throw notFound(`No sheet '${sheet}': sheets are numbered from 0.`);
  const only = ctx.query.get('only');
  if (only !== null && only !== 'errors' && only !== 'warnings') throw bad("'only' must be errors or warnings.", 'only');
  const column = ctx.query.get('column');
  const page = await rowPage(deps.store, record, Number(sheet), {
    skip: intParam(ctx, 'skip', 0, 10_000_000),
    limit: intParam(ctx, 'limit', 100, 5000),
    after: ctx.query.get('after') === null ? -1 : intParam(ctx, 'after', 0, 10_000_000),
    before: ctx.query.get('before') === null ? undefined : intParam(ctx, 'before', 0, 10_000_000),
    only: only ?? undefined,
    code: ctx.query.get('code') ?? undefined,
    column: column === null ? undefined : intParam(ctx, 'column', 0, 1_000_000),
    find: findParam(ctx),
  });
  return json(200, page);
}

async function save(deps: WorkstationDeps, ctx: RequestContext, id: string): Promise<ApiResponse> {
  const record = deps.workbooks.find(whoOf(ctx), id);
  const withIssues = parseBoolean(ctx.query, 'issues', false);
  const bytes = await saveWorkbook(deps.store, record, withIssues);
  // The two saves under two names: the copy with its issues never replaces the file it came from.
  const base = record.name.replace(/\.xlsx$/i, '');
  return attachment(`${base}${withIssues ? ' with issues' : ''}.xlsx`, XLSX_TYPE, bytes);
}

/** A file to download, its name kept to characters every file system takes. */
function attachment(fileName: string, type: string, bytes: Uint8Array): ApiResponse {
  const name = fileName.replace(/[^\w.() -]/g, '_');
  return {
    status: 200,
    headers: { 'content-type': type, 'content-disposition': `attachment; filename="${name}"`, 'cache-control': 'no-store' },
    body: bytes,
  };
}

const PLAN_ACTIONS: readonly PlanAction[] = ['add', 'modify', 'delete', 'unchanged', 'conflict', 'error'];

/** POST starts a plan (202, the workbook in state `planning`); GET pages through the last one. */
function plan(deps: WorkstationDeps, ctx: RequestContext, id: string): ApiResponse {
  if (ctx.method === 'POST') {
    const record = deps.workbookRuns.plan(whoOf(ctx), id, bodyOf(ctx).revision);
    return json(202, { success: true, workbook: workbookInfo(deps, record) } satisfies WorkbookAnswer);
  }
  if (ctx.method !== 'GET') throw methodNotAllowed(ctx, 'GET or POST');
  const record = deps.workbooks.find(whoOf(ctx), id);
  const action = ctx.query.get('action');
  if (action !== null && !PLAN_ACTIONS.includes(action as PlanAction)) {
    throw bad(`'action' must be one of ${PLAN_ACTIONS.join(', ')}.`, 'action');
  }
  const skip = intParam(ctx, 'skip', 0, 10_000_000);
  const limit = intParam(ctx, 'limit', 100, 5000);
  return json(200, planPage(deps.store, record, skip, limit, (action ?? undefined) as PlanAction | undefined));
}

async function oneWorkbook(deps: WorkstationDeps, ctx: RequestContext, rest: string[]): Promise<ApiResponse> {
  const [id, action, sheet, tail] = rest;
  const who = whoOf(ctx);
  if (rest.length === 1) {
    if (ctx.method === 'GET') return json(200, { success: true, workbook: workbookInfo(deps, deps.workbooks.find(who, id)) });
    if (ctx.method === 'DELETE') {
      await deps.workbooks.remove(who, id);
      return json(200, { success: true, id });
    }
    throw methodNotAllowed(ctx, 'GET or DELETE');
  }
  if (action === 'load' && rest.length === 3 && sheet === 'cancel') {
    if (ctx.method !== 'POST') throw methodNotAllowed(ctx, 'POST');
    const record = deps.workbookRuns.cancel(who, id);
    return json(202, { success: true, workbook: workbookInfo(deps, record) } satisfies WorkbookAnswer);
  }
  if (action === 'sheets' && rest.length === 4 && tail === 'rows') {
    if (ctx.method !== 'GET') throw methodNotAllowed(ctx, 'GET');
    return rows(deps, ctx, id, sheet);
  }
  if (action === 'mapping' && rest.length === 3 && sheet === 'preview') {
    if (ctx.method !== 'POST') throw methodNotAllowed(ctx, 'POST');
    const body = bodyOf(ctx);
    checkFieldTypes(body, { mapping: 'object' });
    const preview: MappingPreviewAnswer = {
      success: true,
      ...(await deps.workbooks.previewMapping(who, id, readMapping(body.mapping).mapping)),
    };
    return json(200, preview);
  }
  if (action === 'edits' && rest.length === 3 && sheet === 'preview') {
    if (ctx.method !== 'POST') throw methodNotAllowed(ctx, 'POST');
    return json(200, await deps.workbooks.previewEdit(who, id, bodyOf(ctx).edit));
  }
  if (rest.length !== 2) throw notFound(`No workstation endpoint at ${ctx.path}.`);
  const get = (): void => {
    if (ctx.method !== 'GET') throw methodNotAllowed(ctx, 'GET');
  };
  const post = (): void => {
    if (ctx.method !== 'POST') throw methodNotAllowed(ctx, 'POST');
  };
  switch (action) {
    case 'issues': {
      get();
      const record = deps.workbooks.find(who, id);
      const format = ctx.query.get('format');
      if (format !== null) {
        if (format !== 'xlsx' && format !== 'csv') throw badParameter("'format' must be xlsx or csv.", 'format');
        const file = await issuesFile(deps.store, record, format);
        return attachment(file.fileName, file.type, file.bytes);
      }
      return json(200, issueList(deps.store, record, intParam(ctx, 'skip', 0, 10_000_000), intParam(ctx, 'limit', 1000, 100_000)));
    }
    case 'history': {
      get();
      const record = deps.workbooks.find(who, id);
      const history = deps.store.workbooks.history(record.wb).map((entry) => ({ ...entry, undone: entry.seq > record.head }));
      return json(200, { revision: record.revision, history });
    }
    case 'edits': {
      post();
      const body = bodyOf(ctx);
      return json(200, await deps.workbooks.edit(who, id, body.revision, body.edit));
    }
    case 'undo':
    case 'redo': {
      post();
      return json(200, await deps.workbooks.step(who, id, bodyOf(ctx).revision, action === 'undo' ? -1 : 1));
    }
    case 'duplicate': {
      post();
      return json(202, { success: true, workbook: workbookInfo(deps, deps.workbooks.duplicate(who, id)) } satisfies WorkbookAnswer);
    }
    case 'validate': {
      post();
      return json(200, { success: true, workbook: workbookInfo(deps, await deps.workbooks.revalidate(who, id)) });
    }
    case 'file':
      get();
      return save(deps, ctx, id);
    case 'mapping':
      return mappingStep(deps, ctx, id);
    case 'plan':
      return plan(deps, ctx, id);
    case 'load': {
      post();
      const started = await deps.workbookRuns.load(who, id, bodyOf(ctx));
      const answer: WorkbookLoadAnswer = {
        success: true,
        transaction_id: started.transactionId,
        rows: started.rows,
        workbook: workbookInfo(deps, started.record),
      };
      return json(202, answer);
    }
    default:
      throw notFound(`No workstation endpoint at ${ctx.path}.`);
  }
}

/** The mapping step of a customer's sheet: GET shows the proposal and the mapping to confirm, POST confirms one (workbook-mapping.ts). */
function mappingStep(deps: WorkstationDeps, ctx: RequestContext, id: string): ApiResponse {
  const who = whoOf(ctx);
  if (ctx.method === 'GET') {
    const record = deps.workbooks.find(who, id);
    return json(200, mappingAnswer(deps.store, record.wb, workbookInfo(deps, record), findModel));
  }
  if (ctx.method !== 'POST') throw methodNotAllowed(ctx, 'GET or POST');
  const body = bodyOf(ctx);
  checkFieldTypes(body, { mapping: 'object', save_as: 'string' });
  const { mapping } = readMapping(body.mapping);
  const saveAs = typeof body.save_as === 'string' ? body.save_as.trim() : undefined;
  if (saveAs !== undefined && (saveAs === '' || saveAs.length > 100))
    throw bad("'save_as' must be a name of 1 to 100 characters.", 'save_as');
  const record = deps.workbooks.confirmMapping(who, id, mapping, saveAs);
  return json(202, { success: true, workbook: workbookInfo(deps, record) } satisfies WorkbookAnswer);
}

export const workbookRoutes: WorkstationRouteGroup = {
  prefix: 'workbooks',
  async handle(deps, ctx, rest) {
    assertRole(ctx.principal, 'bulkload');
    if (rest.length === 0) {
      if (ctx.method === 'GET') {
        const list: WorkbookList = { workbooks: deps.workbooks.list(whoOf(ctx)).map((record) => workbookInfo(deps, record, false)) };
        return json(200, list);
      }
      if (ctx.method === 'POST') return create(deps, ctx);
      throw methodNotAllowed(ctx, 'GET or POST');
    }
    return oneWorkbook(deps, ctx, rest);
  },
};
