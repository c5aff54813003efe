import type { ServiceEvent, WorkstationBridge } from '../../../preload/bridge-types';

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
}

export type EventListener = (event: ServiceEvent) => void;

/** What the renderer uses of the preload's bridge; the contract itself is declared once, in preload/. */
export type BridgeLike = Pick<WorkstationBridge, 'request' | 'onEvent'>;

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
