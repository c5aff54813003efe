import { unlink } from 'node:fs/promises';
import { isJsonObject, type ApiResponse, type JsonObject } from '../api-types';
import type { SearchDirection, ViewerAnswer, ViewerSource } from '../contract/viewer-api';
import { guardNode } from '../domain/guards';
import { resolveHierarchy } from '../domain/hierarchy';
import { ownedUpload } from '../domain/owned-upload';
import { ApiError, notFound } from '../errors';
import { jsonBody, type RequestContext } from '../request-context';
import { json } from '../responses';
import type { NodeRow } from '../store/nodes-repo';
import { readViewedBook, type ViewedBook } from '../viewer/viewed-book';
import { checkFieldTypes } from './body-fields';
import { methodNotAllowed, type WorkstationDeps, type WorkstationRouteGroup } from './route-group';
import { generatedFile, generatorRequest } from './workbook-routes';

/**
 * `/workstation/viewer/`: exports and .xlsx files opened read-only (README: Viewing exports).
 * `POST` reads an export (made as the caller, so the export's own checks apply) or the caller's
 * upload and answers a viewer; `<id>/`, `<id>/sheets/<n>/rows/` and `<id>/find/` read it. Viewing
 * an export needs the export role at its node; viewing an upload, its ownership (an upload
 * already needed the bulkload role). Shapes: `../contract/viewer-api.ts`.
 */
const SEARCH_DIRECTIONS: readonly SearchDirection[] = ['down', 'local', 'up', 'all'];

/** The optional fields a viewer's body may hold, by type (body-fields.ts). */
const VIEWER_FIELDS = {
  from: 'string',
  file: 'string',
  query: 'string',
  direction: 'string',
  model_type: 'string',
  hierarchy: 'string',
  name: 'string',
  hrefs: 'array',
  filter: 'object',
} as const;

const bad = (message: string, field: string): ApiError => new ApiError(400, 'validation-failed', message, [{ field, message }]);

function text(body: JsonObject, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value.trim() === '' || value.length > 1000) throw bad(`'${name}' must be given, as text.`, name);
  return value;
}

/** The source as the answer repeats it and "Edit as workbook" sends it on: only the fields that mean something. */
function sourceOf(body: JsonObject, node: NodeRow): ViewerSource {
  if (body.from === 'upload') return { from: 'upload', file: text(body, 'file'), hierarchy: node.path };
  if (body.from === 'search') {
    const source: ViewerSource = { from: 'search', query: text(body, 'query'), hierarchy: node.path };
    if (body.direction !== undefined) {
      if (!SEARCH_DIRECTIONS.includes(body.direction as SearchDirection))
        throw bad(`'direction' must be ${SEARCH_DIRECTIONS.join(', ')}.`, 'direction');
      source.direction = body.direction as SearchDirection;
    }
    return source;
  }
  if (body.from !== 'export') throw bad(`'from' must be export, search or upload.`, 'from');
  const source: ViewerSource = { from: 'export', model_type: text(body, 'model_type'), hierarchy: node.path };
  if (body.hrefs !== undefined) {
    if (!Array.isArray(body.hrefs) || body.hrefs.length > 2000 || !body.hrefs.every((href) => typeof href === 'string')) {
      throw bad("'hrefs' must be a list of at most 2000 instance hrefs.", 'hrefs');
    }
    source.hrefs = body.hrefs as string[];
  } else if (body.filter !== undefined) {
    if (!isJsonObject(body.filter)) throw bad("'filter' must be an object of list parameters.", 'filter');
    source.filter = Object.fromEntries(
      Object.entries(body.filter).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  }
  return source;
}

/** Makes the export as the caller, into a file of its own that is gone once read. */
async function readExport(
  deps: WorkstationDeps,
  ctx: RequestContext,
  source: ViewerSource,
  node: NodeRow,
): Promise<{ book: ViewedBook; name: string }> {
  const request = generatorRequest(source as unknown as JsonObject, node);
  const path = await generatedFile(deps, ctx, request, 'view', 'export-failed', 'The export could not be made.');
  try {
    return { book: await readViewedBook(path, request.name), name: request.name };
  } finally {
    await unlink(path).catch(() => undefined);
  }
}

async function open(deps: WorkstationDeps, ctx: RequestContext): Promise<ApiResponse> {
  const body = jsonBody(ctx);
  if (!isJsonObject(body)) throw bad('The body must be a JSON object.', 'from');
  checkFieldTypes(body, VIEWER_FIELDS);
  const node = resolveHierarchy(deps.store.nodes, typeof body.hierarchy === 'string' ? body.hierarchy : null);
  const source = sourceOf(body, node);
  let read: { book: ViewedBook; name: string };
  if (source.from === 'upload') {
    guardNode(ctx, node, 'read');
    const upload = ownedUpload(deps.store, ctx, source.file);
    read = { book: await readViewedBook(deps.store.uploads.pathOf(upload.id), upload.name), name: upload.name };
  } else {
    guardNode(ctx, node, 'export');
    read = await readExport(deps, ctx, source, node);
  }
  const name = typeof body.name === 'string' && body.name.trim() !== '' ? body.name.slice(0, 255) : read.name;
  const answer: ViewerAnswer = { success: true, viewer: deps.viewers.add(ctx.principal.pkid, name, source, read.book) };
  return json(200, answer);
}

function wholeNumber(ctx: RequestContext, name: string, fallback: number, max: number): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) > max) throw bad(`'${name}' must be a whole number from 0 to ${max}.`, name);
  return Number(raw);
}

function oneViewer(deps: WorkstationDeps, ctx: RequestContext, rest: string[]): ApiResponse {
  const [id, part, sheet, tail] = rest;
  const owner = ctx.principal.pkid;
  if (rest.length === 1) {
    if (ctx.method === 'GET') return json(200, { success: true, viewer: deps.viewers.info(owner, id) } satisfies ViewerAnswer);
    if (ctx.method === 'DELETE') {
      deps.viewers.remove(owner, id);
      return json(200, { success: true, id });
    }
    throw methodNotAllowed(ctx, 'GET or DELETE');
  }
  if (ctx.method !== 'GET') throw methodNotAllowed(ctx, 'GET');
  if (rest.length === 4 && part === 'sheets' && tail === 'rows') {
    if (!/^\d{1,4}$/.test(sheet)) throw notFound(`No sheet '${sheet}': sheets are numbered from 0.`);
    const skip = wholeNumber(ctx, 'skip', 0, 10_000_000);
    return json(200, deps.viewers.rows(owner, id, Number(sheet), skip, wholeNumber(ctx, 'limit', 200, 5000)));
  }
  if (rest.length === 2 && part === 'find') {
    const find = ctx.query.get('text') ?? '';
    if (find.trim() === '' || find.length > 500) throw bad("'text' must be given, at most 500 characters.", 'text');
    return json(200, deps.viewers.find(owner, id, find, wholeNumber(ctx, 'limit', 1000, 10_000)));
  }
  throw notFound(`No workstation endpoint at ${ctx.path}.`);
}

export const viewerRoutes: WorkstationRouteGroup = {
  prefix: 'viewer',
  async handle(deps, ctx, rest) {
    if (rest.length > 0) return oneViewer(deps, ctx, rest);
    if (ctx.method !== 'POST') throw methodNotAllowed(ctx, 'POST');
    return open(deps, ctx);
  },
};
