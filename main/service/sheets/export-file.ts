import { randomBytes } from 'node:crypto';
import type { ApiResponse } from '../api-types';
import { badParameter } from '../errors';
import type { RequestContext } from '../request-context';
import { XLSX_TYPE } from './write-workbook';

/**
 * A written file as the answer to a download: the spec's content type, `Content-Disposition:
 * attachment` with its file name, and the `fileDownloadToken` cookie that lets a browser page
 * notice the download has started.
 */
export interface ExportFile {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

/** `20261121_071500` from the service clock's `2026-11-21T07:15:00.000000` (UTC). */
export function fileStamp(now: string): string {
  const digits = now.replace(/\D/g, '');
  return `${digits.slice(0, 8)}_${digits.slice(8, 14)}`;
}

/** `relation_LineRelation_exportedsheet_formatted_20261121_071500.xlsx` (device/cucm/Line: `device_cucm_Line_...`). */
export function exportFileName(modelType: string, kind: string, now: string, extension = 'xlsx'): string {
  return `${modelType.replace(/\//g, '_')}_${kind}_${fileStamp(now)}.${extension}`;
}

export const xlsxFile = (fileName: string, bytes: Uint8Array): ExportFile => ({ fileName, contentType: XLSX_TYPE, bytes });

/** The caller's `downloadToken` when it is a plain token (it goes into a header), else a random one. */
function downloadToken(query: URLSearchParams): string {
  const given = query.get('downloadToken');
  if (given !== null && /^[A-Za-z0-9._-]{1,128}$/.test(given)) return given;
  return randomBytes(12).toString('hex');
}

export function fileResponse(ctx: RequestContext, file: ExportFile): ApiResponse {
  return {
    status: 200,
    headers: {
      'content-type': file.contentType,
      'content-disposition': `attachment; filename="${file.fileName}"`,
      'set-cookie': `fileDownloadToken=${downloadToken(ctx.query)}; Path=/`,
      'cache-control': 'no-store',
    },
    body: file.bytes,
  };
}

/** `export_format` accepts only `xlsx` (the spec's one value). */
export function checkExportFormat(query: URLSearchParams): void {
  const format = query.get('export_format');
  if (format === null || format === '' || format.toLowerCase() === 'xlsx') return;
  throw badParameter(`export_format must be xlsx, not '${format}'.`, 'export_format');
}
