import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { remotePassword } from './cli-password';
import { defaultDataDir } from './data-dir';
import { keepSecret } from './remote/bound-secret';
import { MemoryVault } from './remote/credential-vault';
import { createService, type Service } from './service';
import type { Principal } from './service/auth/principal';
import type { ConnectionTestResult, RemoteProfile, RemoteProfileInput } from './service/contract/workstation-api';

/**
 * `workstation remote ...`: remote profiles from the command line, through the same
 * /workstation/ endpoints as HTTP and IPC, as the store's local `admin` (whoever can open the
 * data folder holds it all anyway). Passwords are never taken as arguments (they would show in
 * the process list and shell history): WORKSTATION_REMOTE_PASSWORD, or asked on the terminal.
 */
export const REMOTE_USAGE = `usage: workstation remote list [--data <dir>]
       workstation remote add <name> --url <base url> --username <u> [--ca <file.pem>] [--release <r>] [--auth session|basic]
                              [--home <hierarchy>]   (where your part of the remote's tree starts, for a remote without /api/whoami/)
                              [--connect-ms <ms>] [--response-ms <ms>] [--idle-ms <ms>] [--data <dir>]
       workstation remote test <name> [--data <dir>]      (password: WORKSTATION_REMOTE_PASSWORD, or asked)
       workstation remote remove <name> [--data <dir>]`;

const OPTIONS = {
  data: { type: 'string' },
  name: { type: 'string' },
  url: { type: 'string' },
  username: { type: 'string' },
  ca: { type: 'string' },
  release: { type: 'string' },
  home: { type: 'string' },
  auth: { type: 'string' },
  'connect-ms': { type: 'string' },
  'response-ms': { type: 'string' },
  'idle-ms': { type: 'string' },
} as const;

export function localAdmin(service: Service): Principal {
  const admin = service.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
  if (!admin) throw new Error('the store has no admin user');
  return { pkid: admin.pkid, username: 'admin', role: 'admin', hierarchyPkid: admin.hierarchyPkid };
}

/** One /workstation/ call as the local admin; a fault becomes an Error with the service's message. */
export async function workstationCall<T>(service: Service, method: string, url: string, body?: unknown): Promise<T> {
  const answer = await service.handleAs(localAdmin(service), {
    method,
    url,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = JSON.parse(typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body).toString('utf8')) as T & {
    message?: string;
  };
  if (answer.status >= 400) throw new Error(parsed.message ?? `HTTP ${answer.status}`);
  return parsed;
}

/** Reads a profile's password (env or terminal) into the service's vault, for this process only. */
export async function unlockProfile(service: Service, vault: MemoryVault, name: string): Promise<RemoteProfile> {
  const { profile } = await workstationCall<{ profile: RemoteProfile }>(
    service,
    'GET',
    `/workstation/remote-profiles/${encodeURIComponent(name)}/`,
  );
  const address = { id: profile.id, baseUrl: profile.base_url, username: profile.username, caPem: profile.ca_pem };
  keepSecret(vault, address, await remotePassword(profile.name));
  return profile;
}

function describe(profile: RemoteProfile): string {
  const release = profile.release ?? (profile.detected_release ? `${profile.detected_release} (detected)` : 'release unknown');
  return `${profile.name}\t${profile.base_url}\tuser ${profile.username}\t${profile.auth_mode}\t${release}${profile.home_hierarchy ? `\thome ${profile.home_hierarchy}` : ''}${profile.ca_pem ? '\tprivate CA' : ''}`;
}

function inputOf(values: Partial<Record<keyof typeof OPTIONS, string>>): RemoteProfileInput {
  const ms = (text: string | undefined): number | undefined => (text === undefined ? undefined : Number(text));
  const timeouts = { connect_ms: ms(values['connect-ms']), response_ms: ms(values['response-ms']), idle_ms: ms(values['idle-ms']) };
  const given = Object.fromEntries(Object.entries(timeouts).filter(([, value]) => value !== undefined));
  return {
    name: values.name,
    base_url: values.url,
    username: values.username,
    ...(values.ca !== undefined ? { ca_pem: readFileSync(values.ca, 'utf8') } : {}),
    ...(values.release !== undefined ? { release: values.release } : {}),
    ...(values.home !== undefined ? { home_hierarchy: values.home } : {}),
    ...(values.auth !== undefined ? { auth_mode: values.auth as RemoteProfileInput['auth_mode'] } : {}),
    ...(Object.keys(given).length > 0 ? { timeouts: given } : {}),
  };
}

export async function remoteCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
  const [verb, name] = positionals;
  // `remote add <name> --url ...` and `remote add --name <name> --url ...` alike.
  if (verb === 'add' && name !== undefined && values.name === undefined) values.name = name;
  if (!['list', 'add', 'test', 'remove'].includes(verb ?? '') || (['test', 'remove'].includes(verb ?? '') && !name)) {
    process.stderr.write(`${REMOTE_USAGE}\n`);
    return 2;
  }
  const vault = new MemoryVault();
  const service = await createService({ dataDir: values.data ?? defaultDataDir(), vault });
  try {
    if (verb === 'list') {
      const { profiles } = await workstationCall<{ profiles: RemoteProfile[] }>(service, 'GET', '/workstation/remote-profiles/');
      process.stdout.write(profiles.length === 0 ? 'no remote profiles\n' : `${profiles.map(describe).join('\n')}\n`);
    } else if (verb === 'add') {
      const { profile } = await workstationCall<{ profile: RemoteProfile }>(
        service,
        'POST',
        '/workstation/remote-profiles/',
        inputOf(values),
      );
      process.stdout.write(
        `added ${describe(profile)}\nits password is not stored by the CLI: give it to 'remote test' or 'serve --remote ${profile.name}'\n`,
      );
    } else if (verb === 'remove') {
      await workstationCall(service, 'DELETE', `/workstation/remote-profiles/${encodeURIComponent(name)}/`);
      process.stdout.write(`removed ${name}\n`);
    } else {
      await unlockProfile(service, vault, name);
      const result = await workstationCall<ConnectionTestResult>(
        service,
        'POST',
        `/workstation/remote-profiles/${encodeURIComponent(name)}/test/`,
      );
      process.stdout.write(`${result.verdict}: ${result.message}\n`);
      return result.success ? 0 : 1;
    }
    return 0;
  } finally {
    await service.idle();
    service.close();
  }
}
