/**
 * The JSON Schemas (2020-12, as OpenAPI 3.1 takes them) of the shapes the API description names:
 * the fault of decisions.md, the list envelope, the answers of the staged workbooks' endpoints
 * (contract/workbook-api.ts). They say what every answer holds at least (`required`), and leave
 * the rest open: a client reads the fields it knows.
 */
import type { JsonSchema } from '../contract/openapi';

const str: JsonSchema = { type: 'string' };
const int: JsonSchema = { type: 'integer' };
const bool: JsonSchema = { type: 'boolean' };
const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
});
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export const SCHEMAS: Record<string, JsonSchema> = {
  Fault: obj(
    {
      success: { const: false },
      http_code: int,
      code: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' },
      message: { type: 'string', minLength: 1 },
      details: { type: 'array', items: obj({ field: str, message: str }) },
      transaction_id: str,
    },
    ['success', 'http_code', 'code', 'message'],
  ),
  Instance: obj({ data: { type: 'object' }, meta: { type: 'object' } }),
  List: obj(
    {
      pagination: obj({ skip: int, limit: int, total: int, maximum_limit: int }, ['skip', 'limit', 'total']),
      meta: { type: 'object' },
      resources: { type: 'array', items: ref('Instance') },
      schema: { type: 'object' },
    },
    ['pagination', 'meta', 'resources'],
  ),
  Mutation: obj({ success: { const: true }, transaction_id: str, href: str, pkid: str, model_type: str }, ['success', 'transaction_id']),
  Transaction: obj({ data: obj({ transaction_id: str, status: str }, ['status']), meta: { type: 'object' } }, ['data']),
  Poll: { type: 'object', additionalProperties: obj({ status: str, href: str }, ['status']) },
  WhoAmI: { type: 'object' },
  Workbook: obj(
    {
      id: str,
      name: str,
      owner: str,
      hierarchy: str,
      source: { enum: ['upload', 'template', 'export'] },
      state: { enum: ['staging', 'mapping', 'validating', 'draft', 'validated', 'planning', 'planned', 'loading', 'loaded', 'failed'] },
      revision: int,
      can_undo: bool,
      can_redo: bool,
      counts: obj({ rows: int, errors: int, warnings: int }),
      problem: { type: ['string', 'null'] },
      sheets: { type: 'array', items: { type: 'object' } },
    },
    ['id', 'name', 'state', 'revision', 'counts', 'sheets'],
  ),
  WorkbookAnswer: obj({ success: { const: true }, workbook: ref('Workbook') }),
  WorkbookList: obj({ workbooks: { type: 'array', items: ref('Workbook') } }),
  MappingFile: obj(
    {
      model: str,
      columns: { type: 'array', items: obj({ header: str, target: { type: ['string', 'null'] } }) },
      constants: { type: 'object', additionalProperties: str },
      joins: { type: 'array', items: obj({ target: str, headers: { type: 'array', items: str }, separator: str }) },
      splits: {
        type: 'array',
        items: obj({ header: str, separator: str, targets: { type: 'array', items: { type: ['string', 'null'] } } }, [
          'header',
          'separator',
          'targets',
        ]),
      },
      sheet_name: obj({ target: str, transforms: { type: 'array', items: { type: 'object' } } }, ['target']),
    },
    ['model', 'columns'],
  ),
  WorkbookMapping: obj(
    {
      success: { const: true },
      workbook: ref('Workbook'),
      file_name: str,
      reason: str,
      proposal: obj({ sheets: { type: 'array', items: { type: 'object' } } }),
      mapping: ref('MappingFile'),
      remembered: { type: ['object', 'null'] },
      unmapped_required: { type: 'array', items: str },
      applied: bool,
    },
    ['success', 'workbook', 'mapping', 'applied'],
  ),
  MappingPreview: obj({
    success: { const: true },
    names: { type: 'array', items: str },
    rows: { type: 'array', items: obj({ row: int, values: { type: 'array' } }) },
  }),
  ConfirmMapping: obj({ mapping: ref('MappingFile'), save_as: { type: 'string', minLength: 1, maxLength: 100 } }, ['mapping']),
  SavedMapping: obj({ id: int, name: str, hierarchy: str, model: str, headers: { type: 'array', items: str } }),
  SavedMappingList: obj({ mappings: { type: 'array', items: ref('SavedMapping') } }),
  SavedMappingFile: obj(
    {
      name: { type: 'string', minLength: 1, maxLength: 100 },
      hierarchy: str,
      headers: { type: 'array', items: str },
      mapping: ref('MappingFile'),
    },
    ['name', 'mapping'],
  ),
  RowPage: obj(
    { total: int, rows: { type: 'array', items: obj({ id: int, row: int, index: int, cells: { type: 'object' } }, ['id', 'cells']) } },
    ['total', 'rows'],
  ),
  IssueList: obj({ issues: { type: 'array', items: { type: 'object' } } }, ['issues']),
  History: obj({ revision: int, history: { type: 'array', items: obj({ seq: int, op: str, summary: str }) } }),
  EditPreviewBody: obj({ edit: ref('Edit') }),
  EditPreview: obj({
    success: { const: true },
    summary: str,
    changed: int,
    first: { type: 'array', items: obj({ row: int, column: str, before: str, after: str }) },
  }),
  EditResult: obj({
    success: { const: true },
    revision: int,
    can_undo: bool,
    can_redo: bool,
    changed: int,
    issues: { type: 'array', items: { type: 'object' } },
    counts: obj({ rows: int, errors: int, warnings: int }),
  }),
  PlanPage: { type: 'object' },
  RevertAnswer: obj(
    { success: { const: true }, transaction_id: str, rows: int, not_revertable: int, failed_rows: int, workbook: ref('Workbook') },
    ['success', 'transaction_id', 'rows', 'workbook'],
  ),
  RevertLink: obj({
    transaction_id: str,
    reverted_by: { type: 'array', items: obj({ workbook_id: str, name: str, state: str, loads: { type: 'array', items: str } }) },
    reverts: { type: ['string', 'null'] },
  }),
  LoadStarted: obj({ success: { const: true }, transaction_id: str }, ['success', 'transaction_id']),
  Edit: {
    type: 'object',
    required: ['op'],
    properties: {
      op: {
        enum: [
          'set',
          'paste',
          'insert_rows',
          'delete_rows',
          'add_column',
          'remove_column',
          'move_column',
          'fill_down',
          'replace',
          'directive',
          'apply_suggestions',
        ],
      },
      sheet: { type: 'integer', minimum: 0 },
      row_id: int,
      column_id: int,
      cells: { type: 'array', items: obj({ row_id: int, column_id: int, value: {} }, ['row_id', 'column_id']) },
      tsv: str,
      at: { type: 'integer', minimum: 0 },
      count: { type: 'integer', minimum: 1 },
      row_ids: { type: 'array', items: int },
      find: str,
      replace: str,
      regex: bool,
      match_case: bool,
      text: str,
    },
  },
  RevisionBody: obj({ revision: int }),
  EditBody: obj({ revision: int, edit: ref('Edit') }),
  NewWorkbook: {
    type: 'object',
    required: ['from', 'hierarchy'],
    properties: {
      from: { enum: ['upload', 'template', 'export', 'search'] },
      hierarchy: str,
      file: str,
      model_type: str,
      query: str,
      template_name: str,
      policy_name: str,
      hrefs: { type: 'array', items: str },
    },
  },
  InstanceBody: obj({ data: { type: 'object' } }),
  Hrefs: obj({ hrefs: { type: 'array', items: str, minItems: 1 } }),
  Profiles: { type: 'object' },
  Workspaces: { type: 'object' },
  Models: { type: 'object' },
};
