/**
 * The one contract every door (HTTP, IPC, CLI, tests) speaks to the service. Plain data only,
 * so a request and its response can cross an IPC boundary unchanged.
 */
export interface ApiRequest {
  method: string;
  /** Path and query string, e.g. `/api/data/Countries/?hierarchy=sys&limit=10`. */
  url: string;
  /** Header names in lower case. */
  headers?: Record<string, string | undefined>;
  /** Raw body: JSON text, or bytes for uploads. */
  body?: string | Uint8Array;
  /**
   * A file holding the raw body, instead of `body`: the HTTP host streams uploads to disk rather
   * than hold them in memory. Set only by the host; the IPC door never passes it on.
   */
  bodyFile?: string;
  /** Caller address, used to slow down repeated failed logins. */
  remoteAddress?: string;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[]>;
  /** Serialised body: JSON text, HTML, or bytes (spreadsheets). */
  body: string | Uint8Array;
  /**
   * A body still arriving, instead of `body` (then ''): a file passed through from a remote
   * deployment (live workspaces), so it never sits whole in memory. The HTTP host pipes it;
   * doors that cannot stream (IPC) read it whole with `settleBody()` in ./body-stream.
   */
  bodyStream?: BodyStream;
}

/** What a streamed answer body is: the chunks, and a way to stop them when the client goes away. */
export interface BodyStream extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): void;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
