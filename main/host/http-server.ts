import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import type { ApiResponse, Service } from '../service';
import { bodyLimitFor, isServicePath } from '../service';

/**
 * Puts the service's `handle()` on a loopback port and serves the built renderer from the same
 * origin (server mode, browser mode, end-to-end tests). No logic of its own: bytes in, bytes out.
 */
export interface HttpHost {
  port: number;
  url: string;
  server: Server;
  close(): Promise<void>;
}

export interface HttpHostOptions {
  service: Service;
  port: number;
  /** Folder of the built renderer; its index.html answers every non-API path. */
  staticDir?: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** The renderer's pages: scripts and styles from this origin only, no framing. */
const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Node gives repeated request headers as arrays only for set-cookie; join those. */
function headersOf(req: IncomingMessage): Record<string, string | undefined> {
  const headers = req.headers;
  for (const value of Object.values(headers)) {
    if (Array.isArray(value)) {
      return Object.fromEntries(Object.entries(headers).map(([name, v]) => [name, Array.isArray(v) ? v.join(', ') : v]));
    }
  }
  return headers as Record<string, string | undefined>;
}

function tooLarge(res: ServerResponse, limit: number): void {
  const body = JSON.stringify({
    success: false,
    http_code: 413,
    code: 'too-large',
    message: `The request body is larger than the ${limit / 1024 / 1024} MB limit.`,
  });
  res.writeHead(413, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
  res.end(body);
}

function readBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > limit) {
        // Answer at once and drop the rest; never buffer an oversized body.
        refused = true;
        chunks.length = 0;
        tooLarge(res, limit);
        resolvePromise(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!refused) resolvePromise(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

function send(res: ServerResponse, response: ApiResponse): void {
  // With a known length and a string body, Node sends headers and body in one write; a
  // Buffer body or chunked encoding costs a writev of several pieces per response.
  const { body } = response;
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  // A flat [name, value, ...] list is the cheapest form writeHead takes.
  const headers: string[] = ['x-content-type-options', 'nosniff', 'cache-control', 'no-store', 'content-length', String(length)];
  for (const [name, value] of Object.entries(response.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.push(name, item);
    else headers.push(name, value);
  }
  res.writeHead(response.status, headers);
  res.end(body);
}

/** A request without Content-Length or Transfer-Encoding has no body (RFC 9112, 6.3). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
}

function serveStatic(res: ServerResponse, staticDir: string | undefined, pathname: string): void {
  const root = staticDir ? resolve(staticDir) : undefined;
  const index = root ? join(root, 'index.html') : undefined;
  if (!root || !index || !existsSync(index)) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('The user interface is not built: run npm run build.');
    return;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Bad request: the path is not valid percent-encoding.');
    return;
  }
  const candidate = normalize(join(root, decoded));
  const file = candidate.startsWith(root) && existsSync(candidate) && statSync(candidate).isFile() ? candidate : index;
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'content-security-policy': PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  });
  createReadStream(file).pipe(res);
}

export function startHttpServer(options: HttpHostOptions): Promise<HttpHost> {
  const { service } = options;
  const server = createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '/';
      const pathname = url.split('?')[0];
      if (!isServicePath(pathname)) {
        if (req.method === 'GET' || req.method === 'HEAD') serveStatic(res, options.staticDir, pathname);
        else send(res, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not found' });
        return;
      }
      const body = hasBody(req) ? await readBody(req, res, bodyLimitFor(pathname)) : Buffer.alloc(0);
      if (body === undefined) return;
      const response = await service.handle({
        method: req.method ?? 'GET',
        url,
        headers: headersOf(req),
        body: body.length > 0 ? body : undefined,
        remoteAddress: req.socket.remoteAddress,
      });
      send(res, response);
    })().catch((error: unknown) => {
      process.stderr.write(`http host: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"success":false,"http_code":500,"code":"internal-error","message":"The service failed on an internal error."}');
    });
  });
  server.keepAliveTimeout = 5_000;
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolvePromise({
        port,
        url: `http://127.0.0.1:${port}`,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
}
