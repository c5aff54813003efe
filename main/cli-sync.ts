import { parseArgs } from 'node:util';
import { localAdmin, unlockProfile } from './cli-remote';
import { defaultDataDir } from './data-dir';
import { MemoryVault } from './remote/credential-vault';
import { createService, type Service } from './service';
import type { SyncPullAnswer, SyncStatus } from './service/contract/workstation-api';

/**
 * `workstation sync ...`: a remote profile's mirror from the command line, through the same
 * /workstation/sync/ endpoints as HTTP and IPC, as the store's local `admin`. Exit codes: 0 done,
 * 2 refused or unreachable (the fault's message on stderr).
 */
export const SYNC_USAGE = `usage: workstation sync pull <profile> [--data <dir>] [--json]   (password: WORKSTATION_REMOTE_PASSWORD, or asked)
       workstation sync status <profile> [--data <dir>] [--json]`;

const OPTIONS = { data: { type: 'string' }, json: { type: 'boolean' } } as const;

async function call<T>(service: Service, method: string, url: string): Promise<{ status: number; body: T & { message?: string } }> {
  const answer = await service.handleAs(localAdmin(service), { method, url, headers: {} });
  const text = typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body).toString('utf8');
  return { status: answer.status, body: JSON.parse(text) as T & { message?: string } };
}

const countsText = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .map(([model, count]) => `  ${model}: ${count.toLocaleString('en-US')}`)
    .join('\n');

export async function syncCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
  const [verb, name] = positionals;
  if (!['pull', 'status'].includes(verb ?? '') || !name || positionals.length > 2) {
    process.stderr.write(`${SYNC_USAGE}\n`);
    return 2;
  }
  const vault = new MemoryVault();
  const service = await createService({ dataDir: values.data ?? defaultDataDir(), vault });
  const path = `/workstation/sync/${encodeURIComponent(name)}/`;
  try {
    if (verb === 'status') {
      const { status, body } = await call<SyncStatus>(service, 'GET', path);
      if (status !== 200) throw new Error(body.message ?? `HTTP ${status}`);
      if (values.json) process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
      else if (body.pulled_at === null)
        process.stdout.write(`${body.profile}: never pulled; run 'workstation sync pull ${body.profile}'\n`);
      else
        process.stdout.write(
          `${body.profile}: mirror of ${body.pulled_at} (${body.mode} pull, from ${body.home_hierarchy})\n${countsText(body.counts)}\n`,
        );
      return 0;
    }
    try {
      await unlockProfile(service, vault, name);
    } catch (error) {
      process.stderr.write(`workstation: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    process.stderr.write(`pulling ${name}...\n`);
    const started = performance.now();
    const { status, body } = await call<SyncPullAnswer>(service, 'POST', `${path}pull/`);
    if (status !== 200) {
      process.stderr.write(`workstation: ${body.message ?? `HTTP ${status}`}\n`);
      return 2;
    }
    process.stderr.write(`pulled in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    if (values.json) process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    else {
      const what = body.mode === 'full' ? 'everything' : `${body.changed ?? 0} changed instances`;
      process.stdout.write(
        `${name}: pulled ${what} from ${body.home_hierarchy}; mirror of ${body.pulled_at}\n${countsText(body.counts)}\n`,
      );
    }
    return 0;
  } finally {
    await service.idle();
    service.close();
  }
}
