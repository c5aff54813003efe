import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';

/**
 * An HTTP proxy of our own between the workstation and a real remote, that passes every request
 * to the remote and, for the requests `match` picks, spoils the answer the way a proxy, a cut
 * connection or a broken deployment does: a 200 HTML page, JSON cut in half, a gzip body nobody
 * asked for, JSON sent as text/plain, another shape, a total that disagrees with the pages, a
 * page with half its resources, or a well-formed empty list (a broken scope).
 */
export type Spoil = 'html' | 'truncated' | 'gzip' | 'text-type' | 'shape' | 'total' | 'short' | 'empty';

export const SPOILS: readonly Spoil[] = ['html', 'truncated', 'gzip', 'text-type', 'shape', 'total', 'short'];

export interface Spoiling {
  how: Spoil;
  match: (url: URL) => boolean;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function spoiled(how: Spoil, answer: Answer): Answer {
  const json = (): { pagination: { total: number }; resources: unknown[] } & Record<string, unknown> =>
    JSON.parse(answer.body.toString('utf8')) as { pagination: { total: number }; resources: unknown[] };
  const asJson = (value: unknown): Answer => ({ ...answer, body: Buffer.from(JSON.stringify(value)) });
  switch (how) {
    case 'html':
      return {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: Buffer.from('<!doctype html><html><body><h1>Please sign in to the web proxy</h1></body></html>'),
      };
    case 'truncated':
      return { ...answer, body: answer.body.subarray(0, Math.floor(answer.body.length / 2)) };
    case 'gzip':
      return { ...answer, headers: { ...answer.headers, 'content-encoding': 'gzip' }, body: gzipSync(answer.body) };
    case 'text-type':
      return { ...answer, headers: { ...answer.headers, 'content-type': 'text/plain; charset=utf-8' } };
    case 'shape': {
      const { resources, ...rest } = json();
      return asJson({ ...rest, items: resources });
    }
    case 'total': {
      const page = json();
      return asJson({ ...page, pagination: { ...page.pagination, total: page.pagination.total + 7 } });
    }
    case 'short': {
      const page = json();
      return asJson({ ...page, resources: page.resources.slice(0, Math.floor(page.resources.length / 2)) });
    }
    case 'empty': {
      const page = json();
      return asJson({ ...page, pagination: { ...page.pagination, total: 0 }, resources: [] });
    }
  }
}

export class PageSpoiler {
  spoiling: Spoiling | undefined;
  /** Answers spoiled since the last `spoil`. */
  spoiledCount = 0;
  port = 0;
  private server: Server | undefined;

  constructor(private readonly targetPort: number) {}

  spoil(spoiling: Spoiling | undefined): void {
    this.spoiling = spoiling;
    this.spoiledCount = 0;
  }

  async start(): Promise<void> {
    const server = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const upstream = request(
          { host: '127.0.0.1', port: this.targetPort, method: incoming.method, path: incoming.url, headers: incoming.headers },
          (answer) => {
            const body: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => body.push(chunk));
            answer.on('end', () => {
              let reply: Answer = { status: answer.statusCode ?? 502, headers: { ...answer.headers }, body: Buffer.concat(body) };
              const url = new URL(incoming.url ?? '/', 'http://remote');
              const spoiling = this.spoiling;
              if (spoiling && reply.status === 200 && spoiling.match(url)) {
                reply = spoiled(spoiling.how, reply);
                this.spoiledCount += 1;
              }
              const headers = { ...reply.headers, 'content-length': String(reply.body.length) };
              delete headers['transfer-encoding'];
              outgoing.writeHead(reply.status, headers);
              outgoing.end(reply.body);
            });
          },
        );
        upstream.on('error', () => outgoing.destroy());
        upstream.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    server?.closeAllConnections();
    if (server) await new Promise<void>((done) => server.close(() => done()));
  }
}
