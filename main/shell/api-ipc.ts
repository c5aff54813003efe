import type { ApiChannel } from '../../preload/bridge-types';
import type { ApiRequest, ApiResponse } from '../service/api-types';
import { settleBody } from '../service/body-stream';

/** The part of ipcMain this handler needs, so it can be tested without Electron. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => Promise<unknown> | unknown): void;
}

export interface IpcEventLike {
  senderFrame: { url: string } | null;
}

export const API_CHANNEL: ApiChannel = 'api:request';

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

function asRequest(value: unknown): ApiRequest | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { method, url, headers, body } = value as Record<string, unknown>;
  if (typeof method !== 'string' || typeof url !== 'string' || !(url.startsWith('/api/') || url.startsWith('/workstation/')))
    return undefined;
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) return undefined;
  if (headers !== undefined && !isStringRecord(headers)) return undefined;
  // The service reads header names in lower case, as node:http gives them.
  const lowered = headers && Object.fromEntries(Object.entries(headers).map(([name, v]) => [name.toLowerCase(), v]));
  return { method, url, headers: lowered, body };
}

const refusal = (status: number, code: string, message: string): ApiResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({ success: false, http_code: status, code, message }),
});

/**
 * One handler for every API call from the window: it checks that the call comes from the app's
 * own page, then hands the request to the same `handle()` HTTP uses. Faults pass through as data.
 */
export function registerApiHandler(
  ipc: IpcMainLike,
  handle: (request: ApiRequest) => Promise<ApiResponse>,
  isAppPage: (url: string) => boolean,
): void {
  ipc.handle(API_CHANNEL, async (event, raw) => {
    const sender = event.senderFrame?.url ?? '';
    if (!isAppPage(sender))
      return refusal(403, 'permission-denied', 'Permission Denied: the request did not come from the workstation window.');
    const request = asRequest(raw);
    if (!request)
      return refusal(400, 'bad-request', 'An API request needs a method, a /api/ or /workstation/ url, and optional headers and body.');
    try {
      // IPC hands over whole answers: a file streamed from a remote is gathered here, once.
      return await settleBody(await handle(request));
    } catch {
      // handle() answers faults itself; this only keeps a crash from becoming a rejected invoke.
      return refusal(500, 'internal-error', 'The workstation could not answer the request.');
    }
  });
}
