import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRequest, ApiResponse, Service } from '../service';
import type { ServiceEvent, ServiceEventPayloads } from '../service/contract/service-events';
import { isRelayed, type EventViewer } from '../service/workstation/event-access';

/**
 * `GET /workstation/events/`: the service's events as Server-Sent Events (decisions.md,
 * Workstation endpoints), one stream per signed-in page, each carrying only what its user may
 * see. `service.handle()` answers whole bodies, so the host serves this one itself: the service
 * screens and authenticates the request as any other (`identify`), the host holds the stream.
 * It is the local service's own: never forwarded to a remote, whatever workspace is live.
 */
export const EVENTS_PATH = /^\/workstation\/events\/?$/;

export interface EventStreamOptions {
  /** Streams one user may hold open at once; one more is 429. */
  maxPerUser?: number;
  /** A comment line this often keeps proxies and the client's idle timers from closing the stream. */
  pingMs?: number;
  /** Bytes written but not yet taken by a client: past this the client is not reading, and the stream is dropped. */
  maxBufferedBytes?: number;
  /** How often a stream looks whether its session still stands (it also looks before each event). */
  liveCheckMs?: number;
}

type Send = (req: IncomingMessage, res: ServerResponse, response: ApiResponse) => void;

interface OpenStream {
  viewer: EventViewer;
  visible: (event: ServiceEvent) => boolean;
  /** Whether the credentials that opened it still stand (a session not signed out of). */
  live: () => boolean;
  res: ServerResponse;
  end(): void;
}

const EVENT_NAMES: readonly (keyof ServiceEventPayloads)[] = ['transaction', 'progress', 'workbook', 'sync'];
const JSON_TYPE = 'application/json; charset=utf-8';

function fault(status: number, code: string, message: string, headers: Record<string, string | string[]> = {}): ApiResponse {
  return {
    status,
    headers: { 'content-type': JSON_TYPE, ...headers },
    body: JSON.stringify({ success: false, http_code: status, code, message }),
  };
}

/**
 * The open streams of one host. It listens to the service once per event name while any stream
 * is open (not once per stream: a busy load's events are serialised once, whoever listens).
 */
export class EventStreams {
  private readonly open = new Set<OpenStream>();
  private readonly perUser = new Map<string, number>();
  private readonly relays = new Map<string, (payload: ServiceEventPayloads[keyof ServiceEventPayloads]) => void>();
  private readonly maxPerUser: number;
  private readonly pingMs: number;
  private readonly maxBufferedBytes: number;
  private readonly liveCheckMs: number;

  constructor(
    private readonly service: Service,
    private readonly send: Send,
    options: EventStreamOptions = {},
  ) {
    this.maxPerUser = options.maxPerUser ?? 8;
    this.pingMs = options.pingMs ?? 15_000;
    this.maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
    this.liveCheckMs = options.liveCheckMs ?? 1000;
  }

  /** Answers one request on the events path: a refusal in the fault shape, or a stream held open until the client goes. */
  async serve(req: IncomingMessage, res: ServerResponse, head: ApiRequest): Promise<void> {
    const caller = await this.service.identify(head);
    if (caller.refusal) {
      // A page's EventSource cannot send X-Requested-With, but says what it accepts: it gets no
      // challenge either, so the browser never pops up its own password prompt over the app.
      if (caller.refusal.status === 401 && /text\/event-stream/i.test(head.headers?.accept ?? ''))
        delete caller.refusal.headers['www-authenticate'];
      return this.send(req, res, caller.refusal);
    }
    const headers = caller.headers;
    const withBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
    if (head.method.toUpperCase() !== 'GET' || withBody)
      return this.send(
        req,
        res,
        fault(405, 'method-not-allowed', `${head.method} is not allowed on /workstation/events/; use GET, without a body.`, {
          allow: 'GET',
          ...headers,
        }),
      );
    const user = caller.principal.pkid;
    const count = this.perUser.get(user) ?? 0;
    if (count >= this.maxPerUser) {
      const message = `${caller.principal.username} already has ${count} event streams open (at most ${this.maxPerUser}): close a page first.`;
      return this.send(req, res, fault(429, 'too-many-streams', message, { 'retry-after': '15', ...headers }));
    }
    this.perUser.set(user, count + 1);
    this.start(req, res, { principal: caller.principal, callerPath: caller.callerPath }, caller.live, headers);
  }

  /** Ends every stream (the host is closing): each answer ends, and its connection with it. */
  closeAll(): void {
    for (const stream of [...this.open]) stream.end();
  }

  get size(): number {
    return this.open.size;
  }

  private start(
    req: IncomingMessage,
    res: ServerResponse,
    viewer: EventViewer,
    live: () => boolean,
    headers: Record<string, string | string[]>,
  ): void {
    const list: string[] = [
      'content-type',
      'text/event-stream; charset=utf-8',
      'cache-control',
      'no-store',
      'x-content-type-options',
      'nosniff',
      // A stream is its connection's last answer: ending it closes the socket, so a closing host never waits on it.
      'connection',
      'close',
    ];
    for (const [name, value] of Object.entries(headers)) {
      if (Array.isArray(value)) for (const item of value) list.push(name, item);
      else list.push(name, value);
    }
    res.writeHead(200, list);
    // Headers and a first line at once, so the client knows the stream is open; `retry` is EventSource's reconnect delay.
    res.write('retry: 3000\n: connected\n\n');
    const ping = setInterval(() => this.write(stream, ': ping\n\n'), this.pingMs);
    // A stream ends with its session (issue 30, finding 10): signed out of on another page, it stops at once.
    const check = setInterval(() => {
      if (!live()) stream.end();
    }, this.liveCheckMs);
    let ended = false;
    const stream: OpenStream = {
      viewer,
      visible: this.service.visibleEvents(viewer),
      live,
      res,
      end: () => {
        if (ended) return;
        ended = true;
        clearInterval(ping);
        clearInterval(check);
        this.open.delete(stream);
        const left = (this.perUser.get(viewer.principal.pkid) ?? 1) - 1;
        if (left > 0) this.perUser.set(viewer.principal.pkid, left);
        else this.perUser.delete(viewer.principal.pkid);
        if (this.open.size === 0) this.unlisten();
        if (!res.destroyed) res.end();
      },
    };
    this.open.add(stream);
    if (this.open.size === 1) this.listen();
    res.once('close', stream.end);
    req.once('close', () => {
      if (!res.writableFinished) stream.end();
    });
  }

  /** Writes unless the client has stopped reading: then the stream is dropped, never buffered without end. */
  private write(stream: OpenStream, text: string): void {
    const { res } = stream;
    if (res.destroyed || res.writableEnded) return;
    if (res.writableLength > this.maxBufferedBytes) {
      stream.end();
      res.destroy();
      return;
    }
    res.write(text);
  }

  private listen(): void {
    for (const name of EVENT_NAMES) {
      const relay = (payload: ServiceEventPayloads[keyof ServiceEventPayloads]): void =>
        this.deliver({ type: name, ...payload } as ServiceEvent);
      this.relays.set(name, relay);
      this.service.events.on(name, relay);
    }
  }

  private unlisten(): void {
    for (const [name, relay] of this.relays) this.service.events.off(name, relay);
    this.relays.clear();
  }

  private deliver(event: ServiceEvent): void {
    const relayed = isRelayed(event);
    let line: string | undefined;
    for (const stream of [...this.open]) {
      if (userChanged(event, stream.viewer) || !stream.live()) {
        // Its role or node may have changed (or it is gone), or its session was signed out of: the
        // client reconnects and is asked again who it is.
        stream.end();
        continue;
      }
      if (!relayed || !stream.visible(event)) continue;
      line ??= `data: ${JSON.stringify(event)}\n\n`;
      this.write(stream, line);
    }
  }
}

function userChanged(event: ServiceEvent, viewer: EventViewer): boolean {
  return (
    event.type === 'transaction' &&
    event.model_type === 'data/User' &&
    event.status === 'Success' &&
    event.resource_pkid === viewer.principal.pkid
  );
}
