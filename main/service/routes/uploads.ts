import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { ApiResponse } from '../api-types';
import type { UploadAnswer } from '../contract/resource-api';
import { resolveHierarchy } from '../domain/hierarchy';
import { ApiError, MethodNotAllowed } from '../errors';
import type { RequestContext } from '../request-context';
import { json } from '../responses';
import type { NodeRow } from '../store/nodes-repo';
import type { UploadRow, UploadWriter } from '../store/uploads-repo';
import { boundaryOf, readMultipart } from '../uploads/multipart-stream';
import type { RouteDeps } from './deps';
import { guardNode } from '../domain/guards';

/** What a user called the file, for display only: never a path, never empty. */
function displayName(name: string): string {
  const printable = [...name].filter((c) => c.charCodeAt(0) >= 32).join('');
  const base = basename(printable.replace(/\\/g, '/')).trim();
  return (base || 'upload').slice(0, 255);
}

/** The body as it arrives: from the file the HTTP host spooled it to, or the bytes given in-process. */
async function* bodyChunks(ctx: RequestContext): AsyncIterable<Uint8Array> {
  const { body, bodyFile } = ctx.request;
  if (bodyFile !== undefined) yield* createReadStream(bodyFile, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>;
  else if (body !== undefined) yield typeof body === 'string' ? Buffer.from(body) : body;
}

/**
 * Writes each file part named uploadedfile straight into the uploads folder while the form is
 * read, and records them only once the whole form was read: a broken form stores nothing.
 */
async function storeParts(deps: RouteDeps, ctx: RequestContext, node: NodeRow): Promise<UploadRow[]> {
  const type = ctx.request.headers?.['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new ApiError(
      415,
      'unsupported-media-type',
      'An upload is a multipart/form-data body with the file in a part named uploadedfile.',
    );
  }
  const files: { name: string; writer: UploadWriter }[] = [];
  try {
    await readMultipart(bodyChunks(ctx), boundaryOf(type), (part) => {
      if (part.field !== 'uploadedfile' || part.filename === undefined) return undefined;
      const writer = deps.store.uploads.begin();
      files.push({ name: displayName(part.filename), writer });
      return writer;
    });
  } catch (error) {
    for (const file of files) file.writer.abort();
    throw error;
  }
  if (files.length === 0) {
    throw new ApiError(400, 'bad-upload', 'The upload has no file part named uploadedfile.', [
      { field: 'uploadedfile', message: 'is required' },
    ]);
  }
  return files.map((file) => file.writer.commit(file.name, node.pkid, ctx.principal));
}

/**
 * `POST /api/uploadfiles/?hierarchy=...`: stores each `uploadedfile` part in the workspace and
 * answers their ids. Uploading is the first step of a bulk load, so it needs that permission.
 */
export async function routeUpload(deps: RouteDeps, ctx: RequestContext): Promise<ApiResponse> {
  if (ctx.method !== 'POST') throw new MethodNotAllowed('Upload with POST.', ['POST']);
  const node = resolveHierarchy(deps.store.nodes, ctx.query.get('hierarchy'));
  guardNode(ctx, node, 'bulkload');
  const saved = (await storeParts(deps, ctx, node)).map((row) => ({ name: row.name, id: row.id }));
  return json(200, { uploadedfiles: saved } satisfies UploadAnswer);
}
