import * as ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream';
import { Pool } from 'undici';
import { createService } from '../../main/service';
import { seedDemo } from '../../main/service/seed/demo';
import type { BenchConfig } from './bench-config';
import { startChildServer, type ChildServer } from './child-server';
import type { CleanupStack } from './cleanup-stack';
import { seedLines } from './seed-lines';

/**
 * BENCH_ONLY=sync, its world: the remote, a `serve` child on a store seeded with the demo world
 * and 100,000 LineRelation instances written straight into it (`seedLines`, before it starts);
 * the workstation, a `serve` child on an empty Local store, its remote profiles added over HTTP
 * (their passwords then live in its memory vault, as in server mode); and, in this process, a
 * recording pass-through proxy that one untimed pull goes through, so the bench can hold its
 * bare client's pages to the pull's own requests. Passwords are fresh per run and differ
 * between the local admin and the remote one.
 */
export const SYNC_LINES = 100_000;
export const PARIS = 'sys.hcs.Telco.Acme.Paris';

export interface SyncWorld {
  dir: string;
  remote: ChildServer;
  local: ChildServer;
  remoteUser: { username: string; password: string };
  /** Basic credentials of the remote's admin (for the baseline's direct calls) and of the local admin. */
  remoteAuth: string;
  localAuth: string;
  recorder: RecordingProxy;
  seedSeconds: number;
  /** Adds a session profile for the remote (through the recorder when asked); answers its name. */
  addProfile(name: string, viaRecorder?: boolean): Promise<string>;
}

const basicOf = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** The demo world (Paris, its partition, templates), then the lines, bulk-inserted with the indexes rebuilt after. */
async function seedRemote(dataDir: string, config: BenchConfig, password: string): Promise<number> {
  const started = performance.now();
  const service = await createService({ dataDir, adminPassword: password, log: () => undefined });
  try {
    const admin = service.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
    await seedDemo(service, { pkid: admin.pkid, username: 'admin', role: 'admin', hierarchyPkid: admin.hierarchyPkid });
    await service.idle();
  } finally {
    service.close();
  }
  await seedLines(dataDir, { ...config, rows: SYNC_LINES, adminPassword: password, getSamples: 1 });
  return (performance.now() - started) / 1000;
}

/** node:http in front of one undici pool to the remote; every request's method and URL noted, the answer piped back. */
export class RecordingProxy {
  readonly requests: string[] = [];
  private server: Server | undefined;
  private pool: Pool | undefined;
  origin = '';

  async start(target: string): Promise<void> {
    const hop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'te', 'trailer', 'upgrade']);
    const pass = <T>(headers: Record<string, T>): Record<string, T> =>
      Object.fromEntries(Object.entries(headers).filter(([name]) => !hop.has(name)));
    const pool = new Pool(target, { connections: 16 });
    this.pool = pool;
    const server = createServer((req, res) => {
      this.requests.push(`${req.method ?? ''} ${req.url ?? ''}`);
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : req;
      pool.request({ method: req.method as 'GET', path: req.url ?? '/', headers: pass(req.headers), body }).then(
        (answer) => {
          res.writeHead(answer.statusCode, pass(answer.headers));
          pipeline(answer.body, res, () => undefined);
        },
        () => void res.writeHead(502).end(),
      );
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const { server, pool } = this;
    this.server = undefined;
    this.pool = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await pool?.close();
  }
}

export async function openSyncWorld(config: BenchConfig, cleanup: CleanupStack): Promise<SyncWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'workstation-sync-bench-'));
  cleanup.push('remove the sync bench folder', () => rmSync(dir, { recursive: true, force: true }));
  const localPassword = config.adminPassword;
  const remotePassword = `${config.adminPassword}-remote`;
  const seedSeconds = await seedRemote(join(dir, 'remote'), config, remotePassword);
  const cli = join(__dirname, '..', '..', 'main', 'cli.js');
  const remote = await startChildServer(
    'remote (serve)',
    [cli, 'serve', '--port', '0', '--data', join(dir, 'remote')],
    { ...process.env, WORKSTATION_ADMIN_PASSWORD: remotePassword },
    cleanup,
  );
  // BENCH_SYNC_PROFILE=<dir>: the workstation writes a V8 CPU profile there when it stops.
  const profiling = process.env.BENCH_SYNC_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SYNC_PROFILE}`] : [];
  const local = await startChildServer(
    'workstation (serve)',
    [...profiling, cli, 'serve', '--port', '0', '--data', join(dir, 'local')],
    { ...process.env, WORKSTATION_ADMIN_PASSWORD: localPassword },
    cleanup,
  );
  const recorder = new RecordingProxy();
  await recorder.start(remote.origin);
  cleanup.push('stop the recording proxy', () => recorder.stop());
  const localAuth = basicOf('admin', localPassword);
  return {
    dir,
    remote,
    local,
    remoteUser: { username: 'admin', password: remotePassword },
    remoteAuth: basicOf('admin', remotePassword),
    localAuth,
    recorder,
    seedSeconds,
    async addProfile(name, viaRecorder = false) {
      const reply = await fetch(`${local.origin}/workstation/remote-profiles/`, {
        method: 'POST',
        headers: { authorization: localAuth, 'content-type': 'application/json' },
        body: JSON.stringify({
          name,
          base_url: viaRecorder ? recorder.origin : remote.origin,
          username: 'admin',
          password: remotePassword,
          auth_mode: 'session',
        }),
      });
      if (reply.status !== 200) throw new Error(`adding the profile ${name} answered ${reply.status}: ${await reply.text()}`);
      return name;
    },
  };
}

/**
 * A workbook of new lines on new phones at Paris, as test/remote/sync-push.test.ts builds it: a
 * Phone sheet (one phone per 20 lines), then a LineRelation sheet. `prefix` (two hex digits)
 * names the phones, `numbers` starts the directory numbers, so two books never share a row.
 */
export async function pushBook(prefix: string, numbers: string, lines: number): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const phones = book.addWorksheet('Phone');
  phones.addRow(['Hierarchy Node', 'name', 'product', 'protocol']);
  const device = (i: number): string => `SEP${prefix}${String(Math.floor(i / 20)).padStart(10, '0')}`;
  for (let i = 0; i < lines; i += 20) phones.addRow([PARIS, device(i), 'Cisco 8845', 'SIP']);
  const sheet = book.addWorksheet('LineRelation');
  sheet.addRow(['Hierarchy Node', 'Device', 'Directory Number', 'Alerting Name', 'Route Partition']);
  for (let i = 0; i < lines; i += 1) sheet.addRow([PARIS, device(i), `${numbers}${String(i).padStart(7, '0')}`, `Pushed ${i}`, 'Paris-PT']);
  return Buffer.from(await book.xlsx.writeBuffer());
}
