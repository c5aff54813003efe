import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A deployment that speaks the spec only, made of our own `serve`: a small HTTP front that
 * answers `/api/whoami/` (this project's extension, absent from the spec) with the 404 a real
 * deployment gives for an unknown path, and passes every other request, body and answer
 * streamed, to the `serve` behind it. It counts the whoami calls it refused.
 */
export class SpecOnlyFront {
  refusedWhoami = 0;
  private server: Server | undefined;

  constructor(private readonly target: URL) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  async start(): Promise<void> {
    this.server = createServer((incoming, outgoing) => {
      if (/^\/api\/whoami\/?(\?|$)/.test(incoming.url ?? '')) {
        this.refusedWhoami += 1;
        incoming.resume();
        outgoing.writeHead(404, { 'content-type': 'application/json' });
        outgoing.end(JSON.stringify({ success: false, http_code: 404, code: 'not-found', message: 'Not Found' }));
        return;
      }
      const headers = { ...incoming.headers, host: this.target.host };
      const upstream = request(
        { host: this.target.hostname, port: this.target.port, method: incoming.method, path: incoming.url, headers },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.on('error', () => outgoing.destroy());
      incoming.pipe(upstream);
    });
    await new Promise<void>((listening) => this.server?.listen(0, '127.0.0.1', listening));
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((closed) => (this.server ? this.server.close(() => closed()) : closed()));
  }
}
