import type { SaveFileRequest, ServiceEvent, WorkstationBridge } from '../../../preload/bridge-types';

/**
 * The renderer's one way to reach the service (architecture: "one Transport chosen at start").
 * It carries plain requests and answers; it knows nothing of models, faults or views.
 */
export interface TransportRequestOptions {
  query?: Record<string, string | number | boolean | undefined> | URLSearchParams;
  headers?: Record<string, string>;
  /** JSON text, or bytes for uploads. */
  body?: string | Uint8Array;
}

export interface TransportAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** Text for JSON and HTML answers, bytes for files (exports). */
  body: string | Uint8Array;
}

export interface Transport {
  /** 'session': the user signs in with a name and password; 'local': the shell signs the local user in. */
  readonly signIn: 'session' | 'local';
  request(method: string, path: string, options?: TransportRequestOptions): Promise<TransportAnswer>;
  /**
   * The service's events as they happen (those this user may see), until the returned function
   * is called. `onOpen` runs each time the stream (re)connects, when events may have been
   * missed meanwhile: a listener refreshes then what it follows. Optional so that a transport
   * without events (a test's) still works: its callers fall back to asking now and then.
   */
  onEvent?(listener: EventListener, onOpen?: () => void): () => void;
  /**
   * Where the desktop shell offers them (browser mode has neither: the page's own picker and
   * download do): "Open .xlsx" through main's dialog, the file uploaded at `hierarchy` by main
   * (the upload's answer; null when cancelled), and "Save" through main's dialog (false when
   * cancelled). The page never names a path either way.
   */
  openFile?(hierarchy: string): Promise<TransportAnswer | null>;
  saveFile?(file: SaveFileRequest): Promise<boolean>;
}

export type EventListener = (event: ServiceEvent) => void;

/** What the renderer uses of the preload's bridge; the contract itself is declared once, in preload/. */
export type BridgeLike = Pick<WorkstationBridge, 'request' | 'onEvent'> & Partial<Pick<WorkstationBridge, 'openWorkbookFile' | 'saveFile'>>;

/** Path plus query string, with undefined values left out. */
export function urlOf(path: string, query?: TransportRequestOptions['query']): string {
  if (!query) return path;
  const params = query instanceof URLSearchParams ? query : new URLSearchParams();
  if (!(query instanceof URLSearchParams)) {
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.append(key, String(value));
  }
  const text = params.toString();
  return text === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${text}`;
}

export function lowerCaseHeaders(headers: Record<string, string | string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
