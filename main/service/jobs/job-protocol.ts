import { ApiError, type FaultDetail } from '../errors';

/**
 * Messages between the service and a job worker. A job streams chunks (each acknowledged, so a
 * worker never runs more than a few chunks ahead of the thread that stores them) and ends with
 * its result or its error; an ApiError crosses as data and is thrown again on the other side.
 */
export type ToWorker = { type: 'run'; id: number; kind: string; input: unknown } | { type: 'ack'; id: number };

/** `heapBytes`: the worker's heap as the job ends, so the pool can let a swollen worker go. */
export type FromWorker =
  | { type: 'chunk'; id: number; chunk: unknown }
  | { type: 'done'; id: number; result: unknown; heapBytes: number }
  | { type: 'fail'; id: number; fault?: SerializedFault; message: string; heapBytes: number };

export interface SerializedFault {
  httpCode: number;
  code: string;
  message: string;
  details?: FaultDetail[];
}

/** Chunks a worker may send before the first of them is acknowledged. */
export const CHUNKS_AHEAD = 4;

/** A job worker whose heap is still past this once a job is done (and collected) is let go. */
export const SWOLLEN_HEAP_BYTES = 48 * 1024 * 1024;

/** Bytes of a result (a written export) are moved to the other thread, not copied. */
export function transferablesOf(result: unknown): ArrayBuffer[] {
  if (result && typeof result === 'object' && 'bytes' in result && result.bytes instanceof Uint8Array) {
    const bytes = result.bytes;
    if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return [bytes.buffer as ArrayBuffer];
  }
  return [];
}

/** An error as it crosses to another thread: an ApiError as its fault, anything else as its stack. */
export function failureOf(error: unknown): { fault?: SerializedFault; message: string } {
  if (error instanceof ApiError)
    return {
      fault: { httpCode: error.httpCode, code: error.code, message: error.message, details: error.details },
      message: error.message,
    };
  return { message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

/** The error again on this side: the same ApiError, or an internal Error. */
export function errorOf(failure: { fault?: SerializedFault; message: string }): Error {
  const { fault } = failure;
  return fault ? new ApiError(fault.httpCode, fault.code, fault.message, fault.details) : new Error(failure.message);
}
