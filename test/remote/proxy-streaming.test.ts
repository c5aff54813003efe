import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers, CLI_PATH, ServeProcess, tempDataDir } from '../http/serve-process';
import { basic, Client } from './remote-world';

/**
 * Files pass through a live workspace as they arrive, never whole in memory: a 100 MB export
 * from a stand-in remote reaches the client while the remote is still sending, and a 40 MB
 * upload reaches the remote whole, with the process's RSS growing far less than either file.
 */
const MB = 1024 * 1024;
const EXPORT_BYTES = 100 * MB;
const LOCAL_ADMIN = 'streaming-admin-1';
let local: ServeProcess;
let live: Client;
let server: Server;
let exportDone = 0;
let uploadReceived = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const session = { 'set-cookie': ['sessionid=s1; HttpOnly; Path=/'], 'x-csrftoken': 't1' };
    if (req.url === '/noninteractivelogin/') {
      req.resume();
      return void res.writeHead(200, { 'content-type': 'application/json', ...session }).end('{"success":true}');
    }
    if (req.method === 'POST') {
      req.on('data', (chunk: Buffer) => (uploadReceived += chunk.length));
      req.on('end', () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ uploadedfiles: [{ name: 'big.xlsx', id: 'u1' }], received: uploadReceived })),
      );
      return;
    }
    res.writeHead(200, {
      'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'content-disposition': 'attachment; filename="big.xlsx"',
    });
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    let sent = 0;
    const pump = (): void => {
      while (sent < EXPORT_BYTES) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end(() => (exportDone = Date.now()));
    };
    pump();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  // The workstation runs as server mode in its own process, so its memory is measured alone.
  const dataDir = tempDataDir();
  const env = { ...process.env, WORKSTATION_ADMIN_PASSWORD: LOCAL_ADMIN, WORKSTATION_REMOTE_PASSWORD: 'p' };
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const added = spawnSync(
    process.execPath,
    [CLI_PATH, 'remote', 'add', '--name', 'Files', '--url', url, '--username', 'u', '--data', dataDir],
    { env, encoding: 'utf8' },
  );
  if (added.status !== 0) throw new Error(added.stderr);
  local = new ServeProcess(
    spawn(process.execPath, [CLI_PATH, 'serve', '--port', '0', '--data', dataDir, '--remote', 'Files'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  await local.waitForListening(20_000);
  live = new Client(local.url, basic('admin', LOCAL_ADMIN), { 'x-workstation-workspace': 'Files' });
}, 30_000);
afterAll(async () => {
  server?.close();
  await cleanupServers();
});

/** The workstation process's resident memory now, and its peak so far (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

describe('bodies streamed through a live workspace', () => {
  it('passes a 100 MB export through as it arrives, RSS growing by less than 50 MB', async () => {
    const pid = local.child.pid ?? 0;
    // Warm up the pool and the session, so what follows measures the file alone.
    expect((await live.get('/api/data/Countries/?hierarchy=sys')).status).toBe(200);
    const before = memoryOf(pid);
    const response = await fetch(`${local.url}/api/relation/LineRelation/0123/export/?export_format=xlsx`, {
      headers: { authorization: basic('admin', LOCAL_ADMIN), 'x-workstation-workspace': 'Files' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="big.xlsx"');
    let received = 0;
    let firstAt = 0;
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      if (received === 0) firstAt = Date.now();
      received += chunk.byteLength;
    }
    expect(received).toBe(EXPORT_BYTES);
    // The first bytes were here before the remote had written its last one.
    expect(firstAt).toBeLessThan(exportDone);
    const grown = (memoryOf(pid).peak - before.rss) / MB;
    expect(grown).toBeLessThan(50);
  });

  it('sends a 40 MB upload on to the remote whole', async () => {
    const form = new FormData();
    form.append('uploadedfile', new Blob([new Uint8Array(40 * MB)]), 'big.xlsx');
    const before = memoryOf(local.child.pid ?? 0);
    const response = await live.call('POST', '/api/uploadfiles/?hierarchy=sys', { form });
    expect(response.status).toBe(200);
    expect(response.body.received).toBeGreaterThan(40 * MB);
    expect((memoryOf(local.child.pid ?? 0).peak - before.rss) / MB).toBeLessThan(40);
  });
});
