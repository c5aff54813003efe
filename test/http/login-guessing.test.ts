import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers, startServe, tempDataDir, type ServeProcess } from './serve-process';

/**
 * Issue 11, finding 3, over real HTTP: 32 parallel clients from one address made 68 guesses in
 * 10 s. Two servers run side by side for the same 10 s, one guessed at by one serial client, the
 * other by 32 parallel clients; the parallel ones may get no more passwords checked.
 */
let serialServer: ServeProcess;
let parallelServer: ServeProcess;
beforeAll(async () => {
  [serialServer, parallelServer] = await Promise.all([startServe({ dataDir: tempDataDir() }), startServe({ dataDir: tempDataDir() })]);
});
afterAll(cleanupServers);

const WINDOW_MS = 10_000;

/** Guesses admin's password with `clients` clients until the window closes; answers counted within it. */
async function guess(server: ServeProcess, clients: number): Promise<number> {
  const deadline = Date.now() + WINDOW_MS;
  let answered = 0;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), WINDOW_MS);
  const client = async (id: number): Promise<void> => {
    for (let n = 0; Date.now() < deadline; n += 1) {
      const body = JSON.stringify({ username: 'admin', password: `guess-${id}-${n}` });
      try {
        const reply = await fetch(`${server.url}/noninteractivelogin/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: controller.signal,
        });
        await reply.text();
        if (Date.now() <= deadline && reply.status === 401) answered += 1;
      } catch {
        return; // aborted at the deadline: that guess was never checked in time
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, id) => client(id)));
  clearTimeout(timer);
  return answered;
}

describe('password guessing over HTTP', () => {
  it('gets 32 parallel guessers no more guesses in 10 s than one serial guesser', async () => {
    const [serial, parallel] = await Promise.all([guess(serialServer, 1), guess(parallelServer, 32)]);
    console.log(`[login-guessing] guesses answered in 10 s: serial ${serial}, 32 parallel ${parallel}`);
    expect(serial).toBeGreaterThan(2);
    expect(parallel).toBeLessThanOrEqual(serial);
  }, 40_000);
});
