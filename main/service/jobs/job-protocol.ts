import type { FaultDetail } from '../errors';

/**
 * Messages between the service and a job worker. A job streams chunks (each acknowledged, so a
 * worker never runs more than a few chunks ahead of the thread that stores them) and ends with
 * its result or its error; an ApiError crosses as data and is thrown again on the other side.
 */
export type ToWorker = { type: 'run'; id: number; kind: string; input: unknown } | { type: 'ack'; id: number };

export type FromWorker =
  | { type: 'chunk'; id: number; chunk: unknown }
  | { type: 'done'; id: number; result: unknown }
  | { type: 'fail'; id: number; fault?: SerializedFault; message: string };

export interface SerializedFault {
  httpCode: number;
  code: string;
  message: string;
  details?: FaultDetail[];
}

/** Chunks a worker may send before the first of them is acknowledged. */
export const CHUNKS_AHEAD = 4;

/** Bytes of a result (a written export) are moved to the other thread, not copied. */
export function transferablesOf(result: unknown): ArrayBuffer[] {
  if (result && typeof result === 'object' && 'bytes' in result && result.bytes instanceof Uint8Array) {
    const bytes = result.bytes;
    if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return [bytes.buffer as ArrayBuffer];
  }
  return [];
}
