#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { defaultDataDir } from './data-dir';
import { startHttpServer } from './host/http-server';
import { createService, type Service } from './service';
import { seedDemo } from './service/seed/demo';
import { join } from 'node:path';
import { remoteCommand, REMOTE_USAGE, unlockProfile } from './cli-remote';
import { syncCommand, SYNC_USAGE } from './cli-sync';
import { mapCommand, MAP_USAGE } from './cli-map';
import { workbookCommand, WORKBOOK_COMMANDS, WORKBOOK_USAGE, type WorkbookCommand } from './cli-workbook';
import { MemoryVault } from './remote/credential-vault';
import { revertCommand, REVERT_USAGE } from './cli-revert';

/**
 * The command line: `serve` puts the service on a loopback port (server mode). More commands
 * (bulk-load, validate, export, sync) arrive with their features.
 */
const USAGE = `usage: workstation serve [--port <p>] [--data <dir>] [--seed demo] [--release <r>] [--remote <profile>]

  --port     TCP port on 127.0.0.1 (0 picks a free one; default 7080)
  --data     data folder (default: WORKSTATION_DATA or the app's user-data folder)
  --seed     demo: load the demo world into an empty store
  --release  the release the service behaves as (default 20.1.1)
  --remote   a remote profile to work live through: its password is WORKSTATION_REMOTE_PASSWORD,
             or asked on the terminal, and kept in memory while serving

${REMOTE_USAGE}

${SYNC_USAGE}

${WORKBOOK_USAGE}

${MAP_USAGE}

${REVERT_USAGE}`;

async function adminOf(service: Service) {
  const admin = service.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
  if (!admin) throw new Error('the store has no admin user to seed with');
  return { pkid: admin.pkid, username: 'admin', role: 'admin' as const, hierarchyPkid: admin.hierarchyPkid };
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '7080' },
      data: { type: 'string' },
      seed: { type: 'string' },
      release: { type: 'string' },
      static: { type: 'string' },
      remote: { type: 'string' },
    },
  });
  if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) throw new Error(`--port must be 0..65535, not ${values.port}`);
  if (values.seed !== undefined && values.seed !== 'demo') throw new Error(`--seed takes only 'demo', not ${values.seed}`);
  const dataDir = values.data ?? defaultDataDir();
  const vault = new MemoryVault();
  const service = await createService({ dataDir, release: values.release, vault });
  if (values.remote !== undefined) {
    const profile = await unlockProfile(service, vault, values.remote);
    process.stdout.write(`remote profile ${profile.name} (${profile.base_url}) is ready for live work\n`);
  }
  if (service.generatedAdminPassword) {
    process.stdout.write(`created user admin at sys with password ${service.generatedAdminPassword} (shown once: keep it)\n`);
  }
  if (service.recoveredTransactions > 0) {
    process.stdout.write(`${service.recoveredTransactions} interrupted transaction(s) marked Fail and rolled back\n`);
  }
  if (values.seed === 'demo' && (await seedDemo(service, await adminOf(service)))) {
    process.stdout.write('loaded the demo world\n');
  }
  const host = await startHttpServer({
    service,
    port: Number(values.port),
    staticDir: values.static ?? join(__dirname, '..', 'renderer'),
  });
  let closing = false;
  const shutdown = (): void => {
    if (closing) return;
    closing = true;
    // Stop taking requests, let queued transactions finish (bounded), then close the store.
    void Promise.race([host.close().then(() => service.idle()), new Promise((done) => setTimeout(done, 5_000))]).then(() => {
      service.close();
      process.exit(0);
    });
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.stdout.write(`listening on ${host.url}\n`);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'serve') return serve(rest);
  if (command === 'remote') {
    process.exitCode = await remoteCommand(rest);
    return;
  }
  if (command === 'sync') {
    process.exitCode = await syncCommand(rest);
    return;
  }
  if (command === 'revert') {
    process.exitCode = await revertCommand(rest);
    return;
  }
  if (command === 'map') {
    process.exitCode = await mapCommand(rest);
    return;
  }
  if (WORKBOOK_COMMANDS.includes(command)) {
    process.exitCode = await workbookCommand(command as WorkbookCommand, rest);
    return;
  }
  process.stderr.write(`${USAGE}\n`);
  process.exitCode = command === undefined || command === '--help' ? 0 : 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`workstation: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
