import { ALL_MODELS } from '../models/registry';
import { filterFieldsOf } from '../list/list-params';
import type { JsonSchema, OpenApiDocument, Operation, Parameter, PathItem } from '../contract/openapi';
import { SCHEMAS } from './openapi-schemas';

export type { OpenApiDocument, Operation, Parameter, PathItem } from '../contract/openapi';

/**
 * The published description of `/api/` and `/workstation/` (issue 30, build 7): an OpenAPI 3.1
 * document, served at `/api/openapi.json`, built here from the model registry (one path per
 * resource model, its summary attributes as the filters and orders it takes) beside the routes
 * it describes. `test/service/openapi-routes.test.ts` checks it against the routes (each path and
 * method answers, no other method does) and `npm run fuzz` sends requests generated from it.
 */
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });
const FAULTS: Record<string, string> = {
  400: 'Bad input: the fault says which field or parameter',
  401: 'No or wrong credentials',
  403: 'Permission Denied, or csrf-failed',
  404: 'Nothing at this path, or not visible to the caller',
  405: 'Method not allowed: `Allow` lists the methods the path takes',
  409: 'A conflict with the state (revision, duplicate key, quota, busy)',
  413: 'Body too large',
  415: 'Content type not taken',
  429: 'Too many jobs waiting: retry after `Retry-After`',
  503: 'Too many bodies received at once: retry after `Retry-After`',
};

/** The fault answers every operation may give. */
function responses(ok: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>) {
  const faults = Object.fromEntries(Object.entries(FAULTS).map(([code, description]) => [code, { description, content: json('Fault') }]));
  return { ...ok, ...faults };
}

const q = (name: string, schema: JsonSchema, required = false): Parameter => ({ name, in: 'query', required, schema });
const p = (name: string, schema: JsonSchema): Parameter => ({ name, in: 'path', required: true, schema });
/** A flag: true, false (any case), 1 or 0 (strict-requests: anything else is 400 bad-parameter). */
const FLAG: JsonSchema = { type: 'string', pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|1|0)$' };
const HIERARCHY = q('hierarchy', { type: 'string', minLength: 1 });
const body = (name: string, required = true) => ({ required, content: json(name) });

function op(operationId: string, summary: string, ok: string, okSchema: string | null, extra: Partial<Operation> = {}): Operation {
  const okAnswer = okSchema === null ? { description: summary } : { description: summary, content: json(okSchema) };
  return { operationId, summary, ...extra, responses: responses({ [ok]: okAnswer }) };
}

function modelPaths(paths: Record<string, PathItem>): void {
  for (const model of ALL_MODELS.filter((candidate) => candidate.storage === 'instances')) {
    const base = `/api/${model.modelType}/`;
    const id = model.modelType.replace(/[^A-Za-z0-9]/g, '_');
    const summaries = filterFieldsOf(model);
    paths[base] = {
      get: op(`list_${id}`, `${model.title}: a page of instances`, '200', 'List', {
        parameters: [
          HIERARCHY,
          q('skip', { type: 'integer', minimum: 0 }),
          q('limit', { type: 'integer', minimum: 0, maximum: 2000 }),
          q('order_by', { enum: model.summaryAttrs }),
          q('direction', { enum: ['asc', 'desc'] }),
          q('summary', FLAG),
          q('count', FLAG),
          q('schema', FLAG),
          q('format', { enum: ['json'] }),
          q('filter_field', { enum: summaries }),
          q('filter_condition', { enum: ['equals', 'contains', 'startswith', 'endswith'] }),
          q('filter_text', { type: 'string' }),
        ],
      }),
      post: op(`create_${id}`, `${model.title}: create one`, '200', 'Mutation', {
        parameters: [HIERARCHY, q('nowait', FLAG)],
        requestBody: body('InstanceBody'),
      }),
      delete: op(`delete_many_${id}`, `${model.title}: delete the listed instances`, '200', 'Mutation', {
        parameters: [HIERARCHY, q('nowait', FLAG)],
        requestBody: body('Hrefs'),
      }),
    };
    paths[`${base}add/`] = {
      get: op(`add_${id}`, `${model.title}: the form of a new instance`, '200', 'Instance', { parameters: [HIERARCHY] }),
    };
    const pkid = p('pkid', { type: 'string', minLength: 1 });
    paths[`${base}{pkid}/`] = {
      get: op(`get_${id}`, `${model.title}: one instance`, '200', 'Instance', { parameters: [pkid, HIERARCHY, q('schema', FLAG)] }),
      put: op(`update_${id}`, `${model.title}: modify one`, '200', 'Mutation', {
        parameters: [pkid, HIERARCHY, q('nowait', FLAG)],
        requestBody: body('InstanceBody'),
      }),
      delete: op(`delete_${id}`, `${model.title}: delete one`, '200', 'Mutation', { parameters: [pkid, HIERARCHY, q('nowait', FLAG)] }),
    };
  }
}

const WB = p('id', { type: 'string', format: 'uuid' });

function workbookPaths(paths: Record<string, PathItem>): void {
  const w = '/workstation/workbooks/';
  paths[w] = {
    get: op('list_workbooks', "The caller's staged workbooks (and those of users below an admin)", '200', 'WorkbookList'),
    post: op('create_workbook', 'Stage a workbook (answered at once, state staging)', '202', 'WorkbookAnswer', {
      requestBody: body('NewWorkbook'),
    }),
  };
  paths[`${w}{id}/`] = {
    get: op('get_workbook', 'One workbook', '200', 'WorkbookAnswer', { parameters: [WB] }),
    delete: op('delete_workbook', 'Delete it', '200', null, { parameters: [WB] }),
  };
  paths[`${w}{id}/sheets/{sheet}/rows/`] = {
    get: op('workbook_rows', 'A page of a sheet, filtered or not', '200', 'RowPage', {
      parameters: [
        WB,
        p('sheet', { type: 'integer', minimum: 0 }),
        q('skip', { type: 'integer', minimum: 0 }),
        q('limit', { type: 'integer', minimum: 1, maximum: 5000 }),
        q('after', { type: 'integer', minimum: -1 }),
        q('only', { enum: ['errors', 'warnings'] }),
        q('code', { type: 'string', minLength: 1 }),
        q('column', { type: 'integer', minimum: 0 }),
        q('find', { type: 'string', minLength: 1 }),
        q('regex', FLAG),
      ],
    }),
  };
  const revision = { parameters: [WB], requestBody: body('RevisionBody') };
  const issues = op('workbook_issues', 'Every issue, with counts; with format, every issue as a file (xlsx or csv)', '200', 'IssueList', {
    parameters: [WB, q('format', { enum: ['xlsx', 'csv'] })],
  });
  const issuesOk = issues.responses['200'];
  issuesOk.content = {
    ...issuesOk.content,
    'text/csv': { schema: { type: 'string' } },
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string' } },
  };
  paths[`${w}{id}/issues/`] = { get: issues };
  paths[`${w}{id}/history/`] = { get: op('workbook_history', 'The edits, undone or not', '200', 'History', { parameters: [WB] }) };
  paths[`${w}{id}/edits/`] = {
    post: op('edit_workbook', 'One edit, one revision', '200', 'EditResult', { parameters: [WB], requestBody: body('EditBody') }),
  };
  paths[`${w}{id}/edits/preview/`] = {
    post: op('preview_edit', 'What an edit would change, applied to nothing', '200', 'EditPreview', {
      parameters: [WB],
      requestBody: body('EditPreviewBody'),
    }),
  };
  paths[`${w}{id}/undo/`] = { post: op('undo_workbook', 'Undo the last edit', '200', 'EditResult', revision) };
  paths[`${w}{id}/redo/`] = { post: op('redo_workbook', 'Redo the last undone edit', '200', 'EditResult', revision) };
  paths[`${w}{id}/validate/`] = { post: op('validate_workbook', 'Validate it whole again', '200', 'WorkbookAnswer', { parameters: [WB] }) };
  paths[`${w}{id}/duplicate/`] = {
    post: op('duplicate_workbook', 'A copy to try things on', '202', 'WorkbookAnswer', { parameters: [WB] }),
  };
  paths[`${w}{id}/plan/`] = {
    get: op('workbook_plan', 'A page of the last plan', '200', 'PlanPage', {
      parameters: [
        WB,
        q('skip', { type: 'integer', minimum: 0 }),
        q('limit', { type: 'integer', minimum: 0, maximum: 5000 }),
        q('action', { enum: ['add', 'modify', 'delete', 'unchanged', 'conflict', 'error'] }),
      ],
    }),
    post: op('plan_workbook', 'Plan it (a dry run)', '202', 'WorkbookAnswer', revision),
  };
  paths[`${w}{id}/load/`] = { post: op('load_workbook', 'Load it', '202', 'LoadStarted', revision) };
  paths[`${w}{id}/mapping/`] = {
    get: op('workbook_mapping', "A customer sheet's mapping step: the proposal and the mapping to confirm", '200', 'WorkbookMapping', {
      parameters: [WB],
    }),
    post: op('confirm_mapping', 'Confirm a mapping: the sheet is staged through it', '202', 'WorkbookAnswer', {
      parameters: [WB],
      requestBody: body('ConfirmMapping'),
    }),
  };
  paths[`${w}{id}/mapping/preview/`] = {
    post: op('preview_mapping', "The sheet's first rows as a mapping makes them, before it is confirmed", '200', 'MappingPreview', {
      parameters: [WB],
      requestBody: body('ConfirmMapping'),
    }),
  };
  const m = '/workstation/mappings/';
  const SAVED = p('id', { type: 'integer', minimum: 1 });
  paths[m] = {
    get: op('list_mappings', "Mappings saved at the caller's node, below it or above it", '200', 'SavedMappingList'),
    post: op('import_mapping', 'Save (import) a mapping at a node', '201', null, { requestBody: body('SavedMappingFile') }),
  };
  paths[`${m}{id}/`] = {
    get: op('export_mapping', 'A saved mapping, as POST takes it back', '200', 'SavedMappingFile', { parameters: [SAVED] }),
    delete: op('delete_mapping', 'Delete a saved mapping', '200', null, { parameters: [SAVED] }),
  };
  paths[`${w}{id}/file/`] = {
    get: {
      ...op('save_workbook', 'The workbook as .xlsx', '200', null, { parameters: [WB, q('issues', FLAG)] }),
      responses: responses({
        200: {
          description: 'The .xlsx file',
          content: { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string' } } },
        },
      }),
    },
  };
}

function toolPaths(paths: Record<string, PathItem>): void {
  const tx = p('transaction_id', { type: 'string', minLength: 1 });
  paths['/api/tool/Transaction/'] = {
    get: op('list_transactions', 'Transactions, newest first', '200', 'List', {
      parameters: [
        HIERARCHY,
        q('skip', { type: 'integer', minimum: 0 }),
        q('limit', { type: 'integer', minimum: 0, maximum: 2000 }),
        q('parent_id', { type: 'string' }),
      ],
    }),
  };
  paths['/api/tool/Transaction/{transaction_id}/'] = {
    get: op('get_transaction', 'One transaction (a parent lists its first 100 sub-transactions)', '200', 'Transaction', {
      parameters: [tx, HIERARCHY],
    }),
  };
  paths['/api/tool/Transaction/{transaction_id}/poll/'] = {
    get: op('poll_transaction', 'Its status', '200', 'Poll', { parameters: [tx, HIERARCHY] }),
  };
  paths['/workstation/transactions/{transaction_id}/revert/'] = {
    get: op('revert_link', "A load's reverts; for a revert's own load, the load it reverts", '200', 'RevertLink', { parameters: [tx] }),
    post: op(
      'revert_load',
      'The revert plan of a finished bulk load, a staged workbook (answered while it is staged)',
      '202',
      'RevertAnswer',
      {
        parameters: [tx],
      },
    ),
  };
  paths['/api/whoami/'] = { get: op('whoami', 'The caller', '200', 'WhoAmI') };
  paths['/api/openapi.json'] = { get: op('openapi', 'This description', '200', null) };
  paths['/workstation/remote-profiles/'] = {
    get: op('list_profiles', 'Remote profiles the caller may use', '200', 'Profiles'),
    post: op('create_profile', 'A new remote profile', '200', 'Profiles', { requestBody: body('Profiles') }),
  };
  paths['/workstation/workspaces/'] = { get: op('list_workspaces', 'The workspaces', '200', 'Workspaces') };
  paths['/workstation/models/'] = { get: op('list_models', 'The model catalog', '200', 'Models') };
}

let built: OpenApiDocument | undefined;

export function openApiDocument(): OpenApiDocument {
  if (built) return built;
  const paths: Record<string, PathItem> = {};
  modelPaths(paths);
  toolPaths(paths);
  workbookPaths(paths);
  built = {
    openapi: '3.1.0',
    info: {
      title: 'Provisioning workstation',
      version: '1',
      description:
        "The resource API (`/api/`, as the remote deployments answer it) and the workstation's own endpoints (`/workstation/`). Every path is taken with or without its trailing slash; faults have the shape Fault. See README.md and decisions.md.",
    },
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: { basic: { type: 'http', scheme: 'basic' }, session: { type: 'apiKey', in: 'cookie', name: 'sessionid' } },
    },
    security: [{ basic: [] }, { session: [] }],
  };
  return built;
}
