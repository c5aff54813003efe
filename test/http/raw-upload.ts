import { request } from 'node:http';

/**
 * A large request body sent the way an attacker would: declared up front and written chunk by
 * chunk as fast as the server takes it, watching for the answer while still sending. Only one
 * chunk is ever held, so 16 of these in parallel cost the test process nothing.
 */
export interface RawUploadOptions {
  url: string;
  bytes: number;
  headers?: Record<string, string>;
}

export interface RawUploadAnswer {
  status: number;
  /** From the first byte written to the answer's status line. */
  answerMs: number;
  text: string;
  /** How much of the body the server let through before it answered. */
  sentBeforeAnswer: number;
}

// Small pieces: the client yields between them, so its own work does not count as the server's delay.
const CHUNK = Buffer.alloc(64 * 1024, 0x41);

export function rawUpload(options: RawUploadOptions): Promise<RawUploadAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let sent = 0;
    let answered = false;
    const req = request(options.url, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(options.bytes), ...options.headers },
    });
    req.on('response', (res) => {
      answered = true;
      const answerMs = performance.now() - started;
      const sentBeforeAnswer = sent;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      // The server closes a connection whose body it will not read: the end or an error both mean "done".
      const done = (): void => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, answerMs, text: Buffer.concat(chunks).toString('utf8'), sentBeforeAnswer });
      };
      res.on('end', done);
      res.on('error', done);
      res.on('aborted', done);
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const pump = (): void => {
      while (!answered && sent < options.bytes) {
        const piece = Math.min(CHUNK.length, options.bytes - sent);
        sent += piece;
        if (!req.write(piece === CHUNK.length ? CHUNK : CHUNK.subarray(0, piece))) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered && sent >= options.bytes) req.end();
    };
    pump();
  });
}

/** The resident memory of a process, from /proc (Linux). */
export async function rssBytes(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}
