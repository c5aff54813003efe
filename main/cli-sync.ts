import { parseArgs } from 'node:util';
import { localAdmin, unlockProfile } from './cli-remote';
import { defaultDataDir } from './data-dir';
import { MemoryVault } from './remote/credential-vault';
import { createService, type Service } from './service';
import type { SyncEvent } from './service/contract/service-events';
import type { SyncPullAnswer, SyncStatus } from './service/contract/workstation-api';
import { pushCommand } from './cli-push';
import { mappedCopy } from './cli-map';
import { mirrorAge } from './service/contract/mirror-age';

/**
 * `workstation sync ...`: a remote profile's mirror from the command line, through the same
 * /workstation/sync/ endpoints as HTTP and IPC, as the store's local `admin`. Exit codes: 0 done,
 * 2 refused or unreachable (the fault's message on stderr).
 */
export const SYNC_USAGE = `usage: workstation sync pull <profile> [--allow-mass-delete] [--data <dir>] [--json]   (password: WORKSTATION_REMOTE_PASSWORD, or asked)
       workstation sync push <profile> <file.xlsx> [--hierarchy <path>] [--mapping <name or file.json>] [--data <dir>] [--json]
       workstation sync push <profile> --workbook <id> [--data <dir>] [--json]
       workstation sync status <profile> [--data <dir>] [--json]
  push exit codes: 0 every row loaded, 1 some rows failed or were kept back (conflicts, errors), 2 refused or unreachable;
  run a push again with the same file: an unfinished push of that content goes on where it stopped,
  never loading a row twice; a finished one says "already pushed in <transaction> at <time>", sends nothing, exit 0
  --allow-mass-delete  let the pull remove more than a tenth of a model's instances from the mirror
                       (refused otherwise, exit 2: a remote answering a broken scope must not empty it)`;

const OPTIONS = {
  data: { type: 'string' },
  json: { type: 'boolean' },
  workbook: { type: 'string' },
  hierarchy: { type: 'string' },
  mapping: { type: 'string' },
  'allow-mass-delete': { type: 'boolean' },
} as const;

async function call<T>(
  service: Service,
  method: string,
  url: string,
  json?: unknown,
): Promise<{ status: number; body: T & { message?: string } }> {
  const answer = await service.handleAs(localAdmin(service), {
    method,
    url,
    headers: json === undefined ? {} : { 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body).toString('utf8');
  return { status: answer.status, body: JSON.parse(text) as T & { message?: string } };
}

const countsText = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .map(([model, count]) => `  ${model}: ${count.toLocaleString('en-US')}`)
    .join('\n');

export async function syncCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
  const [verb, name, file] = positionals;
  const pushArgs = verb === 'push' && (file === undefined) !== (values.workbook === undefined);
  if (
    !['pull', 'status', 'push'].includes(verb ?? '') ||
    !name ||
    (verb === 'push' ? !pushArgs || positionals.length > 3 : positionals.length > 2)
  ) {
    process.stderr.write(`${SYNC_USAGE}\n`);
    return 2;
  }
  const vault = new MemoryVault();
  const service = await createService({ dataDir: values.data ?? defaultDataDir(), vault });
  const path = `/workstation/sync/${encodeURIComponent(name)}/`;
  // Progress on stderr, a few lines a second at most.
  let printedAt = 0;
  const onSync = (event: SyncEvent): void => {
    const now = Date.now();
    if (event.ended || now - printedAt < 250) return;
    printedAt = now;
    process.stderr.write(`  ${event.action} ${event.profile}: ${event.text}\n`);
  };
  service.events.on('sync', onSync);
  try {
    if (verb === 'status') {
      const { status, body } = await call<SyncStatus>(service, 'GET', path);
      if (status !== 200) throw new Error(body.message ?? `HTTP ${status}`);
      if (values.json) process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
      else if (body.pulled_at === null)
        process.stdout.write(`${body.profile}: never pulled; run 'workstation sync pull ${body.profile}'\n`);
      else
        process.stdout.write(
          `${body.profile}: mirror of ${mirrorAge(body.pulled_at, new Date())} (${body.mode} pull, from ${body.home_hierarchy})\n${countsText(body.counts)}\n`,
        );
      return 0;
    }
    // A push reads the password only once it knows it will send something (cli-push.ts).
    if (verb === 'push') {
      // A customer's own sheet, written through its mapping first: the mapping says the sites' and
      // numbers' forms (the store's places are the local store's, not the remote's).
      const pushed =
        file !== undefined && values.mapping !== undefined ? await mappedCopy(file, values.mapping, undefined, values.data, false) : file;
      return await pushCommand(service, vault, name, pushed, values);
    }
    try {
      await unlockProfile(service, vault, name);
    } catch (error) {
      process.stderr.write(`workstation: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    process.stderr.write(`pulling ${name}...\n`);
    const started = performance.now();
    const { status, body } = await call<SyncPullAnswer>(
      service,
      'POST',
      `${path}pull/`,
      values['allow-mass-delete'] ? { allow_mass_delete: true } : undefined,
    );
    if (status !== 200) {
      process.stderr.write(`workstation: ${body.message ?? `HTTP ${status}`}\n`);
      return 2;
    }
    process.stderr.write(`pulled in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    if (values.json) process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    else {
      const what = body.mode === 'full' ? 'everything' : `${body.changed ?? 0} changed instances`;
      const reread =
        body.reread.length > 0 ? `; read whole again, as their counts differed from the remote's: ${body.reread.join(', ')}` : '';
      process.stdout.write(
        `${name}: pulled ${what} from ${body.home_hierarchy}${reread}; mirror of ${mirrorAge(body.pulled_at, new Date())}\n${countsText(body.counts)}\n`,
      );
    }
    return 0;
  } finally {
    service.events.off('sync', onSync);
    await service.idle();
    service.close();
  }
}
