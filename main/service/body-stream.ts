import type { ApiResponse } from './api-types';

/** A streamed answer read whole, for a door that hands over whole answers (IPC, in-process callers). */
export async function settleBody(response: ApiResponse): Promise<ApiResponse> {
  const stream = response.bodyStream;
  if (!stream) return response;
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return { status: response.status, headers: response.headers, body: Buffer.concat(chunks) };
}
