import { createReadStream, createWriteStream, existsSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import type { ApiRequest, ApiResponse, Service } from '../service';
import { bodyLimitFor, isServicePath, isUploadPath } from '../service';
import { BodyBudget } from './body-budget';
import { EVENTS_PATH, EventStreams, type EventStreamOptions } from './event-stream';

/**
 * Puts the service's `handle()` on a loopback port and serves the built renderer from the same
 * origin (server mode, browser mode, end-to-end tests). No API logic of its own: it asks the
 * service to admit a request on its headers before it reads the body (a refused body is never
 * read), keeps the bodies arriving at once under a cap, and streams uploads to disk.
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
  /** Limits of `GET /workstation/events/`: streams per user, ping period, unread bytes allowed. */
  eventStreams?: EventStreamOptions;
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

function tooLargeResponse(limit: number): ApiResponse {
  const body = JSON.stringify({
    success: false,
    http_code: 413,
    code: 'too-large',
    message: `The request body is larger than the ${limit / 1024 / 1024} MB limit.`,
  });
  return { status: 413, headers: { 'content-type': 'application/json; charset=utf-8' }, body };
}

function busy(): ApiResponse {
  const body = JSON.stringify({
    success: false,
    http_code: 503,
    code: 'service-busy',
    message: 'Too many large request bodies are arriving at once: send this one again in a few seconds.',
  });
  return { status: 503, headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': '5' }, body };
}

/**
 * Answers without reading the body. A body still on its way is never read: the answer says
 * Connection: close, and the connection closes once the answer is out.
 */
function refuse(req: IncomingMessage, res: ServerResponse, response: ApiResponse): void {
  if (hasBody(req) && !req.complete) {
    response.headers.connection = 'close';
    lingerOnClose(req);
  }
  send(res, response);
}

/**
 * Node ends a Connection: close answer with socket.destroySoon(): it destroys the socket as soon
 * as the answer is written, and a socket destroyed with unread data in it sends a reset, which
 * can make the client drop the answer it has not read yet (it is still busy sending). So this
 * socket's close sends our FIN, stops reading, and drops the socket a little later: the client
 * reads its answer first, and no more of the body than what already arrived is ever read.
 */
function lingerOnClose(req: IncomingMessage): void {
  const socket = req.socket;
  socket.destroySoon = () => {
    socket.end();
    // Node resumes an unread request on the next tick (to discard its body); pause after that.
    setImmediate(() => socket.pause());
    setTimeout(() => socket.destroy(), UNREAD_LINGER_MS).unref();
  };
}

/**
 * Long enough for a client busy sending (or slowed by a loaded machine) to read its answer; the
 * socket is paused meanwhile, so lingering costs no reading and no memory of this process.
 */
const UNREAD_LINGER_MS = 2_000;

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
        refuse(req, res, tooLargeResponse(limit));
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

/** Streams a body to `file`; stops reading as soon as it passes `limit`, and leaves no file unless whole. */
function spoolBody(req: IncomingMessage, file: string, limit: number): Promise<'ok' | 'too-large' | 'aborted'> {
  return new Promise((resolvePromise) => {
    const out = createWriteStream(file, { flags: 'wx' });
    let size = 0;
    let settled = false;
    const settle = (outcome: 'ok' | 'too-large' | 'aborted'): void => {
      if (settled) return;
      settled = true;
      if (outcome !== 'ok') {
        req.unpipe(out);
        out.destroy();
      }
      resolvePromise(outcome);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) settle('too-large');
    });
    req.on('close', () => {
      if (!req.complete) settle('aborted');
    });
    out.on('finish', () => settle('ok'));
    out.on('error', () => settle('aborted'));
    req.pipe(out);
  });
}

function send(res: ServerResponse, response: ApiResponse): void {
  if (response.bodyStream) return sendStream(res, response);
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

/**
 * An answer still arriving (a file from a remote deployment): written as it comes, at the
 * client's pace, never gathered whole. A client that goes away stops the remote's stream; a
 * remote that breaks off mid-file breaks this connection too, so the client sees a truncated
 * download rather than a file that looks whole.
 */
function sendStream(res: ServerResponse, response: ApiResponse): void {
  const stream = response.bodyStream;
  if (!stream) return;
  const headers: string[] = ['x-content-type-options', 'nosniff', 'cache-control', 'no-store'];
  for (const [name, value] of Object.entries(response.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.push(name, item);
    else headers.push(name, value);
  }
  res.writeHead(response.status, headers);
  res.once('close', () => {
    if (!res.writableFinished) stream.destroy();
  });
  void (async () => {
    try {
      for await (const chunk of stream) {
        if (!res.write(chunk)) await new Promise<void>((done) => res.once('drain', done).once('close', done));
        if (res.destroyed) return;
      }
      res.end();
    } catch {
      res.destroy();
    }
  })();
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

/** Bodies held in memory at once (JSON, at most 10 MB each). */
const MEMORY_BUDGET_BYTES = 64 * 1024 * 1024;
/** Upload bodies being streamed to disk at once (at most 50 MB each). */
const SPOOL_BUDGET_BYTES = 256 * 1024 * 1024;

export function startHttpServer(options: HttpHostOptions): Promise<HttpHost> {
  const { service } = options;
  const budgets = { memory: new BodyBudget(MEMORY_BUDGET_BYTES), spool: new BodyBudget(SPOOL_BUDGET_BYTES) };
  // A refusal of a request that came with a body is answered without reading it, as every other.
  const streams = new EventStreams(
    service,
    (req, res, response) => (hasBody(req) ? refuse(req, res, response) : send(res, response)),
    options.eventStreams,
  );

  /** A service request: refused on its headers if it must be, and only then is its body read. */
  async function serviceRequest(req: IncomingMessage, res: ServerResponse, url: string, pathname: string): Promise<void> {
    const head: ApiRequest = { method: req.method ?? 'GET', url, headers: headersOf(req), remoteAddress: req.socket.remoteAddress };
    // The event stream is the one answer that never ends by itself: served here, not by handle().
    if (EVENTS_PATH.test(pathname)) return streams.serve(req, res, head);
    // Without a body there is nothing to hold back: handle() makes the same checks, and asking
    // admit() first authenticated every GET twice (a tenth of a live workspace's proxy CPU).
    if (!hasBody(req)) return send(res, await service.handle(head));
    const refusal = await service.admit(head);
    if (refusal) return refuse(req, res, refusal);
    const limit = bodyLimitFor(pathname);
    const declared = Math.min(Number(req.headers['content-length'] ?? limit) || limit, limit);
    const budget = isUploadPath(pathname) ? budgets.spool : budgets.memory;
    if (!budget.take(declared)) return refuse(req, res, busy());
    try {
      if (budget === budgets.spool) await spooledRequest(req, res, head, limit);
      else await bufferedRequest(req, res, head, limit);
    } finally {
      budget.give(declared);
    }
  }

  async function bufferedRequest(req: IncomingMessage, res: ServerResponse, head: ApiRequest, limit: number): Promise<void> {
    const body = await readBody(req, res, limit);
    if (body === undefined) return;
    send(res, await service.handle({ ...head, body: body.length > 0 ? body : undefined }));
  }

  /** Uploads go to a file as they arrive, never whole into memory; the service reads them from there. */
  async function spooledRequest(req: IncomingMessage, res: ServerResponse, head: ApiRequest, limit: number): Promise<void> {
    const file = service.spoolPath();
    let response: ApiResponse | undefined;
    try {
      const outcome = await spoolBody(req, file, limit);
      if (outcome === 'too-large') return refuse(req, res, tooLargeResponse(limit));
      if (outcome === 'aborted') return void res.destroy();
      response = await service.handle({ ...head, bodyFile: file });
    } finally {
      // Gone before the answer leaves: a client that looks at once finds only what was stored.
      rmSync(file, { force: true });
    }
    send(res, response);
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '/';
      const pathname = url.split('?')[0];
      if (!isServicePath(pathname)) {
        if (req.method === 'GET' || req.method === 'HEAD') serveStatic(res, options.staticDir, pathname);
        else refuse(req, res, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not found' });
        return;
      }
      await serviceRequest(req, res, url, pathname);
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
            // Open event streams never go idle: ended here, each closes its connection.
            streams.closeAll();
            server.closeIdleConnections();
          }),
      });
    });
  });
}
