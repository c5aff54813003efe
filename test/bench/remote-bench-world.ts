import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workstationCall } from '../../main/cli-remote';
import { createService } from '../../main/service';
import { seedDemo } from '../../main/service/seed/demo';
import type { BenchConfig } from './bench-config';
import { startChildServer, type ChildServer } from './child-server';
import type { CleanupStack } from './cleanup-stack';

/**
 * BENCH_ONLY=remote, its three servers, each a process of its own as in the field: the remote
 * (`serve` on a store seeded with the demo world and a 50 MB kept export), the bare
 * pass-through proxy in front of it, and the workstation (`serve --remote`, its Local store
 * empty, a session profile for the remote). Passwords are fresh per run and differ between
 * the local admin and the remote one, so no answer can come from the wrong side.
 */
export const PROFILE = 'BenchRemote';
export const EXPORT_BYTES = 50 * 1024 * 1024;
/** The demo's models read by the instance GETs: lines, phones, subscribers, inventory numbers. */
const READ_MODELS = ['relation/LineRelation', 'device/cucm/Phone', 'relation/Subscriber', 'data/InternalNumberInventory'];

export interface RemoteBenchWorld {
  remote: ChildServer;
  bare: ChildServer;
  workstation: ChildServer;
  /** Basic credentials of the remote's admin (direct and bare) and of the local admin (workstation). */
  remoteAuth: string;
  localAuth: string;
  /** Instance GET paths of the remote's seeded instances. */
  paths: string[];
  /** The remote's download of the kept export, and the sha256 of its bytes. */
  exportPath: string;
  exportSha256: string;
}

const basicOf = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** The demo world, and a 50 MB file kept as an export of the remote's admin (served by its own /api/export/download/<id>/). */
async function seedRemote(dataDir: string, password: string): Promise<{ paths: string[]; exportId: string; sha256: string }> {
  const service = await createService({ dataDir, adminPassword: password, log: () => undefined });
  try {
    const admin = service.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
    const principal = { pkid: admin.pkid, username: 'admin', role: 'admin' as const, hierarchyPkid: admin.hierarchyPkid };
    await seedDemo(service, principal);
    const rows = service.store.db
      .prepare<string[], { pkid: string; model_type: string }>(
        `SELECT pkid, model_type FROM instances WHERE model_type IN (${READ_MODELS.map(() => '?').join(', ')}) ORDER BY pkid`,
      )
      .all(...READ_MODELS);
    // Random bytes: incompressible, and the proxy never looks inside a file it streams.
    const writer = service.store.uploads.begin();
    const hash = createHash('sha256');
    for (let sent = 0; sent < EXPORT_BYTES; sent += 1024 * 1024) {
      const chunk = randomBytes(1024 * 1024);
      hash.update(chunk);
      writer.write(chunk);
    }
    const kept = writer.commit('LineRelation_exported_bench_20261124_120000.xlsx', admin.hierarchyPkid, principal);
    return { paths: rows.map((row) => `/api/${row.model_type}/${row.pkid}/`), exportId: kept.id, sha256: hash.digest('hex') };
  } finally {
    service.close();
  }
}

/** The workstation's Local store with one session profile for the remote (the CLI's `remote add`, in process). */
async function addProfile(dataDir: string, password: string, remoteOrigin: string): Promise<void> {
  const service = await createService({ dataDir, adminPassword: password, log: () => undefined });
  try {
    await workstationCall(service, 'POST', '/workstation/remote-profiles/', {
      name: PROFILE,
      base_url: remoteOrigin,
      username: 'admin',
      auth_mode: 'session',
    });
  } finally {
    service.close();
  }
}

export async function openRemoteBenchWorld(config: BenchConfig, cleanup: CleanupStack): Promise<RemoteBenchWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'workstation-remote-bench-'));
  cleanup.push('remove the remote bench folder', () => rmSync(dir, { recursive: true, force: true }));
  const localPassword = config.adminPassword;
  const remotePassword = `${config.adminPassword}-remote`;
  const seeded = await seedRemote(join(dir, 'remote'), remotePassword);
  const cli = join(__dirname, '..', '..', 'main', 'cli.js');
  const remote = await startChildServer(
    'remote (serve)',
    [cli, 'serve', '--port', '0', '--data', join(dir, 'remote')],
    { ...process.env, WORKSTATION_ADMIN_PASSWORD: remotePassword },
    cleanup,
  );
  const bare = await startChildServer('bare undici proxy', [join(__dirname, 'bare-proxy.js'), remote.origin], process.env, cleanup);
  await addProfile(join(dir, 'local'), localPassword, remote.origin);
  // BENCH_REMOTE_PROFILE=<dir>: the workstation writes a V8 CPU profile there when it stops.
  const profiling = process.env.BENCH_REMOTE_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_REMOTE_PROFILE}`] : [];
  const workstation = await startChildServer(
    'workstation (serve --remote)',
    [...profiling, cli, 'serve', '--port', '0', '--data', join(dir, 'local'), '--remote', PROFILE],
    { ...process.env, WORKSTATION_ADMIN_PASSWORD: localPassword, WORKSTATION_REMOTE_PASSWORD: remotePassword },
    cleanup,
  );
  return {
    remote,
    bare,
    workstation,
    remoteAuth: basicOf('admin', remotePassword),
    localAuth: basicOf('admin', localPassword),
    paths: seeded.paths,
    exportPath: `/api/export/download/${seeded.exportId}/`,
    exportSha256: seeded.sha256,
  };
}
