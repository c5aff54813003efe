import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/**
 * A remote profile's password for the CLI: WORKSTATION_REMOTE_PASSWORD, else asked on the
 * terminal without echo. Kept in memory by the caller for the life of the process only.
 */
export async function remotePassword(profile: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const fromEnv = env.WORKSTATION_REMOTE_PASSWORD;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (!process.stdin.isTTY) {
    throw new Error(`no password for remote profile ${profile}: set WORKSTATION_REMOTE_PASSWORD, or run this on a terminal to be asked`);
  }
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const reader = createInterface({ input: process.stdin, output, terminal: true });
  const answer = new Promise<string>((resolve) => reader.question(`Password of remote profile ${profile}: `, resolve));
  muted = true;
  try {
    return await answer;
  } finally {
    reader.close();
    process.stdout.write('\n');
  }
}
