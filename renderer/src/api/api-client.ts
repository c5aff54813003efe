import type { Transport, TransportAnswer, TransportRequestOptions } from '../transport/transport';
import { fileNameOf, type DownloadedFile } from './downloads';
import { ApiFault, faultFrom } from './fault';

export type ConnectionListener = (reachable: boolean) => void;

/** A remote profile's workspace, as the client sends it: every /api/ call goes to that deployment. */
export interface LiveWorkspace {
  name: string;
  baseUrl: string;
}

/** Asks the user to go on; the app's is its own dialog (confirm-store.ts), never the browser's. */
export type Confirm = (message: string) => boolean | Promise<boolean>;

/** What the client asks before a risky call in a live workspace: the action, the deployment and its address. */
export function liveQuestion(action: string, live: LiveWorkspace): string {
  return `${action} on ${live.name} (${live.baseUrl})?\n\nThis changes the live deployment ${live.name}, not the local store.`;
}

const WORKSPACE_HEADER = 'x-workstation-workspace';

/**
 * What asks for a confirmation in a live workspace (issue 14, point 4): deleting, bulk loading
 * and tagging change a customer's system. Validation and reads never ask.
 */
export function riskyAction(method: string, path: string, query?: TransportRequestOptions['query']): string | undefined {
  const upper = method.toUpperCase();
  if (upper === 'DELETE') return 'Delete';
  if (upper === 'PATCH' && /\/\+tag(_version)?\/?$/.test(path)) return 'Change tags';
  if (upper === 'POST' && /^\/api\/tool\/BulkLoad\/?/.test(path)) {
    const params =
      query instanceof URLSearchParams
        ? query
        : new URLSearchParams(
            Object.entries(query ?? {})
              .filter(([, v]) => v !== undefined)
              .map(([k, v]) => [k, String(v)]),
          );
    const method = params.get('method') ?? new URLSearchParams(path.split('?')[1] ?? '').get('method');
    return method === 'validate' ? undefined : 'Bulk load';
  }
  return undefined;
}

/**
 * JSON over the chosen transport: a 2xx answer is parsed, anything else becomes an ApiFault with
 * the service's message. It also tells whether the service was reachable, for the status line.
 */
export class ApiClient {
  private listeners = new Set<ConnectionListener>();
  private workspace: LiveWorkspace | undefined;
  // Until the window gives its dialog (createStores), a risky live call is refused, never sent unasked.
  private confirm: Confirm = () => false;

  constructor(readonly transport: Transport) {}

  /** Sends every /api/ call to a remote deployment from now on, or (undefined) to the local store. */
  setWorkspace(live: LiveWorkspace | undefined): void {
    this.workspace = live;
  }

  get liveWorkspace(): LiveWorkspace | undefined {
    return this.workspace;
  }

  setConfirm(confirm: Confirm): void {
    this.confirm = confirm;
  }

  onConnection(listener: ConnectionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * `approvedFor`: the live deployment a dialog of the app's own already named when the user
   * confirmed this call (the delete dialogs), so it is not asked twice. Any other workspace by
   * then (switched meanwhile) is asked again.
   */
  async raw(method: string, path: string, options?: TransportRequestOptions, approvedFor?: string): Promise<TransportAnswer> {
    const live = path.startsWith('/api/') ? this.workspace : undefined;
    if (live) {
      const action = riskyAction(method, path, options?.query);
      if (action && approvedFor !== live.name && !(await this.confirm(liveQuestion(action, live)))) {
        throw new ApiFault(499, 'cancelled', `Cancelled: nothing was sent to ${live.name}.`);
      }
      options = { ...options, headers: { ...options?.headers, [WORKSPACE_HEADER]: live.name } };
    }
    let answer: TransportAnswer;
    try {
      answer = await this.transport.request(method, path, options);
    } catch (error) {
      this.listeners.forEach((listener) => listener(false));
      throw new ApiFault(
        0,
        'unreachable',
        `The workstation service could not be reached (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
    this.listeners.forEach((listener) => listener(true));
    return answer;
  }

  async get<T>(path: string, query?: TransportRequestOptions['query']): Promise<T> {
    return this.json<T>('GET', path, { query });
  }

  async send<T>(method: string, path: string, body?: unknown, query?: TransportRequestOptions['query'], approvedFor?: string): Promise<T> {
    if (body === undefined) return this.json<T>(method, path, { query }, approvedFor);
    // Declared on every door, IPC too: the service takes JSON bodies only as application/json.
    return this.json<T>(method, path, { query, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, approvedFor);
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

  private async json<T>(method: string, path: string, options: TransportRequestOptions, approvedFor?: string): Promise<T> {
    const answer = await this.raw(method, path, options, approvedFor);
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
