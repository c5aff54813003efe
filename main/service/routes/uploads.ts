import { basename } from 'node:path';
import type { ApiResponse } from '../api-types';
import { resolveHierarchy } from '../domain/hierarchy';
import { ApiError } from '../errors';
import type { RequestContext } from '../request-context';
import { json } from '../responses';
import type { RouteDeps } from './deps';
import { guardNode } from './guards';

/** Uploaded spreadsheets may be this large (decisions.md: 50 MB). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** What a user called the file, for display only: never a path, never empty. */
function displayName(name: string): string {
  const printable = [...name].filter((c) => c.charCodeAt(0) >= 32).join('');
  const base = basename(printable.replace(/\\/g, '/')).trim();
  return (base || 'upload').slice(0, 255);
}

async function partsOf(ctx: RequestContext): Promise<File[]> {
  const type = ctx.request.headers?.['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new ApiError(415, 'unsupported-media-type', 'An upload is a multipart/form-data body with the file in a part named uploadedfile.');
  }
  let form: FormData;
  try {
    form = await new Response(ctx.request.body ?? '', { headers: { 'content-type': type } }).formData();
  } catch {
    throw new ApiError(400, 'bad-upload', 'The upload is not a readable multipart form: send the file in a part named uploadedfile.');
  }
  const files = form.getAll('uploadedfile').filter((part): part is File => typeof part !== 'string');
  if (files.length === 0) {
    throw new ApiError(400, 'bad-upload', 'The upload has no file part named uploadedfile.', [{ field: 'uploadedfile', message: 'is required' }]);
  }
  return files;
}

/**
 * `POST /api/uploadfiles/?hierarchy=...`: stores each `uploadedfile` part in the workspace and
 * answers their ids. Uploading is the first step of a bulk load, so it needs that permission.
 */
export async function routeUpload(deps: RouteDeps, ctx: RequestContext): Promise<ApiResponse> {
  if (ctx.method !== 'POST') throw new ApiError(405, 'method-not-allowed', 'Upload with POST.');
  const node = resolveHierarchy(deps.store.nodes, ctx.query.get('hierarchy'));
  guardNode(ctx, node, 'bulkload');
  const files = await partsOf(ctx);
  const saved = [];
  for (const file of files) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const row = deps.store.uploads.save(displayName(file.name), bytes, node.pkid, ctx.principal);
    saved.push({ name: row.name, id: row.id });
  }
  return json(200, { uploadedfiles: saved });
}
