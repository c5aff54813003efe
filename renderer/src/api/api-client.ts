import type { Transport, TransportAnswer, TransportRequestOptions } from '../transport/transport';
import { fileNameOf, type DownloadedFile } from './downloads';
import { ApiFault, faultFrom } from './fault';

export type ConnectionListener = (reachable: boolean) => void;

/**
 * JSON over the chosen transport: a 2xx answer is parsed, anything else becomes an ApiFault with
 * the service's message. It also tells whether the service was reachable, for the status line.
 */
export class ApiClient {
  private listeners = new Set<ConnectionListener>();

  constructor(readonly transport: Transport) {}

  onConnection(listener: ConnectionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async raw(method: string, path: string, options?: TransportRequestOptions): Promise<TransportAnswer> {
    let answer: TransportAnswer;
    try {
      answer = await this.transport.request(method, path, options);
    } catch (error) {
      this.listeners.forEach((listener) => listener(false));
      throw new ApiFault(0, 'unreachable', `The workstation service could not be reached (${error instanceof Error ? error.message : String(error)}).`);
    }
    this.listeners.forEach((listener) => listener(true));
    return answer;
  }

  async get<T>(path: string, query?: TransportRequestOptions['query']): Promise<T> {
    return this.json<T>('GET', path, { query });
  }

  async send<T>(method: string, path: string, body?: unknown, query?: TransportRequestOptions['query']): Promise<T> {
    if (body === undefined) return this.json<T>(method, path, { query });
    // Declared on every door, IPC too: the service takes JSON bodies only as application/json.
    return this.json<T>(method, path, { query, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  /** A file answer (an export): its bytes, type and name; a fault answer throws as JSON calls do. */
  async file(method: string, path: string, options: TransportRequestOptions, fallbackName: string): Promise<DownloadedFile> {
    const answer = await this.raw(method, path, options);
    if (answer.status < 200 || answer.status >= 300) throw faultFrom(answer.status, parseBody(answer.body));
    return {
      bytes: typeof answer.body === 'string' ? new TextEncoder().encode(answer.body) : answer.body,
      type: answer.headers['content-type'] ?? 'application/octet-stream',
      fileName: fileNameOf(answer.headers['content-disposition'], fallbackName),
    };
  }

  private async json<T>(method: string, path: string, options: TransportRequestOptions): Promise<T> {
    const answer = await this.raw(method, path, options);
    const parsed = parseBody(answer.body);
    if (answer.status < 200 || answer.status >= 300) throw faultFrom(answer.status, parsed);
    return parsed as T;
  }
}

function parseBody(body: string | Uint8Array): unknown {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
