import type { ServiceEvent } from '../../preload/bridge-types';
import type { EventListener, Transport, TransportAnswer, TransportRequestOptions } from '../../renderer/src/transport/transport';
import { urlOf } from '../../renderer/src/transport/transport';

export interface RecordedCall {
  method: string;
  /** Path and query string as the transport would send it. */
  url: string;
  body?: unknown;
}

type Reply =
  | { status?: number; body: unknown; headers?: Record<string, string> }
  | ((call: RecordedCall) => { status?: number; body: unknown; headers?: Record<string, string> });

/**
 * A transport for store and component tests: answers are given per "METHOD path" (the path
 * without its query), every call is recorded. It stands in for the service only; the stores and
 * components under test are the real ones.
 */
export class FakeTransport implements Transport {
  readonly calls: RecordedCall[] = [];
  private readonly replies = new Map<string, Reply>();

  constructor(readonly signIn: 'session' | 'local' = 'session') {}

  on(method: string, path: string, reply: Reply): this {
    this.replies.set(`${method.toUpperCase()} ${path}`, reply);
    return this;
  }

  async request(method: string, path: string, options: TransportRequestOptions = {}): Promise<TransportAnswer> {
    const call: RecordedCall = {
      method: method.toUpperCase(),
      url: urlOf(path, options.query),
      body: typeof options.body === 'string' ? JSON.parse(options.body) : options.body,
    };
    this.calls.push(call);
    await this.gates.get(`${call.method} ${path}`);
    const reply = this.replies.get(`${call.method} ${path}`);
    if (!reply) {
      return {
        status: 404,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ success: false, http_code: 404, code: 'not-found', message: `No fake answer for ${call.method} ${path}` }),
      };
    }
    const answer = typeof reply === 'function' ? reply(call) : reply;
    return {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json', ...answer.headers },
      body: JSON.stringify(answer.body),
    };
  }

  private readonly gates = new Map<string, Promise<void>>();

  /** Holds the answers of "METHOD path" until the returned function is called (a request still running). */
  hold(method: string, path: string): () => void {
    let release = (): void => undefined;
    this.gates.set(
      `${method.toUpperCase()} ${path}`,
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    return () => release();
  }

  /** The query parameters of the last call to a path. */
  lastQuery(path: string): URLSearchParams {
    const call = [...this.calls].reverse().find((c) => c.url.split('?')[0] === path);
    return new URLSearchParams(call?.url.split('?')[1] ?? '');
  }
}

/** The fake transport, with the service's events: `emit` delivers one, `open` says the stream (re)connected. */
export class EventTransport extends FakeTransport {
  readonly subscribers = new Set<{ listener: EventListener; onOpen?: () => void }>();

  onEvent(listener: EventListener, onOpen?: () => void): () => void {
    const subscriber = { listener, onOpen };
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  emit(event: ServiceEvent): void {
    for (const subscriber of [...this.subscribers]) subscriber.listener(event);
  }

  open(): void {
    for (const subscriber of [...this.subscribers]) subscriber.onOpen?.();
  }
}

export function fault(status: number, code: string, message: string): { status: number; body: unknown } {
  return { status, body: { success: false, http_code: status, code, message } };
}

/**
 * The service's refusal of a row index that is not a whole number from 0 (`after=-1`), as
 * workbook-routes.ts answers it; undefined when every index of the query is one.
 */
export function badRowIndex(query: URLSearchParams): { status: number; body: unknown } | undefined {
  for (const name of ['after', 'before', 'skip', 'limit']) {
    const raw = query.get(name);
    if (raw !== null && raw !== '' && !/^\d{1,9}$/.test(raw))
      return fault(400, 'bad-parameter', `'${name}' must be a whole number from 0 to 10000000.`);
  }
  return undefined;
}

/** A HierarchyNode as the list answers it. */
export function nodeInstance(pkid: string, name: string, hierarchy: string, nodeType = 'Site') {
  return {
    data: { name, node_type: nodeType },
    meta: { model_type: 'data/HierarchyNode', pkid, hierarchy, href: `/api/data/HierarchyNode/${pkid}/` },
  };
}

export function listOf(resources: unknown[], total = resources.length, skip = 0) {
  return {
    pagination: { skip, limit: 2000, total, maximum_limit: 2000, order_by: 'name', direction: 'asc' },
    meta: { model_type: 'data/HierarchyNode', summary_attrs: [{ name: 'name', title: 'Name' }], actions: {} },
    resources,
  };
}
