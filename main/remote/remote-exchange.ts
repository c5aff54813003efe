import { createReadStream, statSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Pool } from 'undici';
import { ApiError } from '../service/errors';
import type { RemoteTarget } from './remote-target';

/** One request to a remote deployment and its answer: the body whole (JSON, HTML) or as a stream (files). */
export interface Exchanged {
  status: number;
  headers: IncomingHttpHeaders;
  /** Set for JSON and text answers, read whole within the response deadline. */
  text?: Buffer;
  /** Set for every other answer (xlsx exports...): passed on as it arrives. */
  stream?: Readable;
  ms: number;
}

/** A request: its body, and whether a successful answer may be streamed on as it arrives (a live request's, passed to its client). */
export interface ExchangeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: OutgoingBody;
  streamOk?: boolean;
}

/** What a request carries: a body given whole, or a file the HTTP host spooled an upload to (sent from disk, so it can be sent again). */
export interface OutgoingBody {
  bytes?: string | Uint8Array;
  file?: string;
}

/**
 * Memory budgets for what a remote sends (issue 30, finding 6): answers held whole were up to
 * 64 MB each, 16 at once per profile (8 live GETs of 60 MB grew the workstation by 360-760 MB).
 * A live answer that succeeded now streams through to the client as files do; what must be read
 * whole (a sync page, a fault, a sign-in) is at most MAX_TEXT_ANSWER, and all such answers being
 * received at once, across profiles, at most MAX_TEXT_HELD: past either, 502 remote-too-large.
 */
export const MAX_TEXT_ANSWER = 32 * 1024 * 1024;
export const MAX_TEXT_HELD = 64 * 1024 * 1024;
let held = 0;
const TEXT_TYPES = /^(application\/json|text\/|application\/problem\+json)/i;

/** A keep-alive pool bound to the profile's origin: the only host this profile's requests can reach. */
export function poolFor(target: RemoteTarget): Pool {
  return new Pool(target.origin, {
    connections: 16,
    keepAliveTimeout: 4_000,
    headersTimeout: target.responseMs,
    bodyTimeout: target.idleMs,
    connect: { timeout: target.connectMs, rejectUnauthorized: true, ...(target.caPem ? { ca: target.caPem } : {}) },
  });
}

const deadlineError = (): Error =>
  Object.assign(new Error('the remote deployment did not answer within the response timeout'), { code: 'ETIMEDOUT' });

/**
 * Sends one request through the pool. The response deadline covers the headers and, for JSON
 * and text, the whole body (a slow drip cannot hold it open); a streamed file has only the idle
 * timeout between its chunks, as a big export may rightly take minutes.
 */
export async function exchange(pool: Pool, target: RemoteTarget, request: ExchangeRequest): Promise<Exchanged> {
  if (request.body === undefined) return bodiless(pool, target, request);
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(deadlineError()), target.responseMs);
  const headers = { ...request.headers };
  let body: string | Uint8Array | Readable | undefined = request.body.bytes;
  if (request.body.file !== undefined) {
    headers['content-length'] = String(statSync(request.body.file).size);
    body = createReadStream(request.body.file);
  }
  try {
    const answer = await pool.request({ method: request.method as 'GET', path: request.path, headers, body, signal: controller.signal });
    if (passedOn(answer, request)) {
      clearTimeout(timer);
      return { status: answer.statusCode, headers: answer.headers, stream: quiet(answer.body), ms: performance.now() - started };
    }
    const text = await readWhole(answer.body, target);
    clearTimeout(timer);
    return { status: answer.statusCode, headers: answer.headers, text, ms: performance.now() - started };
  } catch (error) {
    clearTimeout(timer);
    if (body !== undefined && typeof body === 'object' && 'destroy' in body) body.destroy();
    throw controller.signal.aborted ? deadlineError() : error;
  }
}

/**
 * A request without a body (every read): the same deadline, kept without an AbortController,
 * whose making and listeners cost a read more than its whole answer takes to pass through (the
 * remote bench's profile). The pool's headersTimeout (the profile's response timeout) bounds the
 * wait for the head; a JSON body gets what is left of the deadline, then is destroyed.
 */
async function bodiless(pool: Pool, target: RemoteTarget, request: ExchangeRequest): Promise<Exchanged> {
  const started = performance.now();
  const answer = await pool.request({ method: request.method as 'GET', path: request.path, headers: request.headers });
  if (passedOn(answer, request))
    return { status: answer.statusCode, headers: answer.headers, stream: quiet(answer.body), ms: performance.now() - started };
  const left = Math.max(0, target.responseMs - (performance.now() - started));
  const timer = setTimeout(() => answer.body.destroy(deadlineError()), left);
  try {
    const text = await readWhole(answer.body, target);
    return { status: answer.statusCode, headers: answer.headers, text, ms: performance.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A body passed on with a listener for its errors: undici's body emits one (RequestAbortedError)
 * when it is destroyed before its end, which every caller that drops an answer does
 * (`stream.destroy()`), and an error nobody listens to ends the process. A reader that iterates
 * the body still sees its errors: iteration does not depend on this listener.
 */
function quiet<T extends Readable>(body: T): T {
  body.on('error', () => undefined);
  return body;
}

/** A file, or a live request's successful answer: passed on as it arrives, never held whole. */
function passedOn(answer: { statusCode: number; headers: IncomingHttpHeaders }, request: ExchangeRequest): boolean {
  if (isFile(answer, request.method)) return true;
  return (
    request.streamOk === true &&
    answer.statusCode >= 200 &&
    answer.statusCode < 300 &&
    answer.statusCode !== 204 &&
    request.method !== 'HEAD'
  );
}

/** Everything but JSON and text (xlsx exports...) is passed on as it arrives. */
function isFile(answer: { statusCode: number; headers: IncomingHttpHeaders }, method: string): boolean {
  return !TEXT_TYPES.test(String(answer.headers['content-type'] ?? '')) && method !== 'HEAD' && answer.statusCode !== 204;
}

/** Gathers a JSON or text answer from its events (no async iterator: one promise per answer, not per chunk), within the budgets. */
function readWhole(stream: Readable, target: RemoteTarget): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (): void => {
      settled = true;
      held -= size;
    };
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      const alone = size + chunk.length > MAX_TEXT_ANSWER;
      if (!alone && held + chunk.length <= MAX_TEXT_HELD) {
        size += chunk.length;
        held += chunk.length;
        return void chunks.push(chunk);
      }
      settle();
      chunks.length = 0;
      stream.destroy();
      const mb = (bytes: number): number => bytes / 1024 / 1024;
      reject(
        new ApiError(
          502,
          'remote-too-large',
          alone
            ? `${target.name} sent a JSON or text answer larger than ${mb(MAX_TEXT_ANSWER)} MB; ask for a smaller page (limit).`
            : `The answers of remote deployments being received at once passed ${mb(MAX_TEXT_HELD)} MB (this one from ${target.name} was at ${mb(size).toFixed(1)} MB); try again, or ask for smaller pages (limit).`,
        ),
      );
    });
    stream.once('end', () => {
      if (settled) return;
      settle();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    });
    const fail = (error: Error): void => {
      if (settled) return;
      settle();
      reject(error);
    };
    stream.once('error', fail);
    // A body destroyed without an error (the client went away) must not leave the promise hanging.
    stream.once('close', () => fail(Object.assign(new Error('the remote answer was closed before its end'), { code: 'ECONNRESET' })));
  });
}

/** Bytes of remote answers being received whole now (for tests and the README's figures). */
export function heldRemoteBytes(): number {
  return held;
}
