import type { UploadAnswer } from '../../../main/service/contract/resource-api';
import type { TransportAnswer } from '../transport/transport';
import type { ApiClient } from './api-client';
import { faultFrom } from './fault';

/**
 * Sends a file the user picked to `/api/uploadfiles/` at `hierarchy`, as the upload route takes
 * it (decisions.md: one multipart part named `uploadedfile`). Straight through the transport:
 * staged workbooks and viewers are the local service's, so the file goes there even while a
 * remote workspace is live (the client would send it to the remote).
 */
const BOUNDARY = 'workstation-upload-boundary';

function multipart(name: string, bytes: Uint8Array): Uint8Array {
  const safeName = name.replace(/["\r\n]/g, '_');
  const head = new TextEncoder().encode(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="uploadedfile"; filename="${safeName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = new TextEncoder().encode(`\r\n--${BOUNDARY}--\r\n`);
  const body = new Uint8Array(head.length + bytes.length + tail.length);
  body.set(head, 0);
  body.set(bytes, head.length);
  body.set(tail, head.length + bytes.length);
  return body;
}

/** The name the service stored the file under; a refusal throws as an ApiFault. */
function uploadedName(uploaded: TransportAnswer): string {
  const text = typeof uploaded.body === 'string' ? uploaded.body : new TextDecoder().decode(uploaded.body);
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    body = { message: `The upload was refused (HTTP ${uploaded.status}).` };
  }
  const name = uploaded.status === 200 ? (body as Partial<UploadAnswer>).uploadedfiles?.[0]?.name : undefined;
  if (name === undefined) throw faultFrom(uploaded.status === 200 ? 502 : uploaded.status, body);
  return name;
}

/** Resolves once the service has stored the file, with the name it is stored under; a refusal throws as an ApiFault. */
export async function uploadFile(client: ApiClient, name: string, bytes: Uint8Array, hierarchy: string): Promise<string> {
  const uploaded = await client.transport.request('POST', '/api/uploadfiles/', {
    query: { hierarchy },
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: multipart(name, bytes),
  });
  return uploadedName(uploaded);
}

/** True where the transport opens files through the desktop shell's own dialog (else: the page's picker). */
export const picksFilesItself = (client: ApiClient): boolean => client.transport.openFile !== undefined;

/**
 * "Open .xlsx" through the desktop shell: main shows its dialog and uploads the chosen file at
 * `hierarchy`. The stored file's name, or undefined when the user cancelled.
 */
export async function pickAndUpload(client: ApiClient, hierarchy: string): Promise<string | undefined> {
  const uploaded = await client.transport.openFile?.(hierarchy);
  return uploaded ? uploadedName(uploaded) : undefined;
}
