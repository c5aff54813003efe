import { readFileSync } from 'node:fs';
import type { Principal } from '../auth/principal';
import type { Store } from '../domain/store';
import { notFound } from '../errors';
import type { NodeRow } from '../store/nodes-repo';
import type { UploadRow } from '../store/uploads-repo';
import type { Submitted, TransactionEngine } from '../transactions/engine';
import type { ExportFile } from './export-file';
import { XLSX_TYPE } from './write-workbook';

/**
 * `nowait=true` exports: the file is kept in the workspace's uploads (so it can also be named
 * as a bulk load file) and a transaction records it. The transaction's resource pkid is the
 * file's id; `GET /api/export/download/<id>/` serves it, to the user who made it only.
 */
export const EXPORT_MODEL_TYPE = 'view/ExportData';

export const exportDownloadHref = (id: string): string => `/api/export/download/${id}/`;

/** Only files an export wrote are served here, never a spreadsheet someone uploaded. */
const EXPORT_NAME = /_exported(sheet)?_[a-z]+_\d{8}_\d{6}\.(xlsx|json)$/;

export function keepForDownload(
  store: Store,
  engine: TransactionEngine,
  principal: Principal,
  node: NodeRow,
  file: ExportFile,
): Submitted & { id: string } {
  const row = store.uploads.save(file.fileName, file.bytes, node.pkid, principal);
  const href = exportDownloadHref(row.id);
  const submitted = engine.submit({
    username: principal.username,
    action: 'Export',
    detail: file.fileName,
    modelType: EXPORT_MODEL_TYPE,
    hierarchyPkid: node.pkid,
    hierarchyPath: node.path,
    resourcePkid: row.id,
    run: (steps) => {
      steps.log('info', `Exported ${file.fileName} (${file.bytes.byteLength} bytes); download it from ${href}`);
      return { resourcePkid: row.id, state: 'Exported' };
    },
  });
  return { ...submitted, id: row.id };
}

/** The kept export `id` of `username`; anything else is 404, so ids of others' files reveal nothing. */
export function keptExport(store: Store, id: string, username: string): { row: UploadRow; file: ExportFile } {
  const row = /^[0-9a-f]{24}$/.test(id) ? store.uploads.get(id) : undefined;
  if (!row || row.username !== username || !EXPORT_NAME.test(row.name)) throw notFound(`No export ${id} of ${username} is kept here.`);
  const contentType = row.name.endsWith('.json') ? 'application/json; charset=utf-8' : XLSX_TYPE;
  return { row, file: { fileName: row.name, contentType, bytes: new Uint8Array(readFileSync(store.uploads.pathOf(id))) } };
}
