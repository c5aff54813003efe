import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { stopChild } from './child-process-stop';
import type { CleanupStack } from './cleanup-stack';

/** A server running in its own process, ready once it printed `listening on <url>`. */
export interface ChildServer {
  label: string;
  origin: string;
  pid: number;
  /** User + system CPU seconds so far (Linux /proc), or undefined where unavailable. */
  cpuSeconds(): number | undefined;
  stop(): Promise<void>;
}

const LISTENING = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/;

export async function startChildServer(
  label: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cleanup: CleanupStack,
  timeoutMs = 60_000,
): Promise<ChildServer> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  cleanup.push(`stop ${label}`, () => stopChild(child));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    // Keep the tail only: enough to explain a failed start without growing for ever.
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const origin = await waitForListening(child, label, timeoutMs, () => stderr);
  const pid = child.pid ?? -1;
  return { label, origin, pid, cpuSeconds: () => cpuSecondsOf(pid), stop: () => stopChild(child) };
}

function waitForListening(child: ChildProcess, label: string, timeoutMs: number, stderr: () => string): Promise<string> {
  const { stdout } = child;
  if (!stdout) return Promise.reject(new Error(`${label} has no stdout to announce itself on`));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: stdout });
    const fail = (why: string): void => {
      clearTimeout(timer);
      lines.close();
      reject(new Error(`${label} ${why}${stderr() ? `:\n${stderr()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`printed no listening line within ${timeoutMs / 1000} s`), timeoutMs);
    const onExit = (code: number | null, signal: string | null): void => fail(`exited before listening (code ${code}, signal ${signal})`);
    child.once('exit', onExit);
    child.once('error', (error) => fail(`failed to start: ${error.message}`));
    lines.on('line', (line) => {
      const match = LISTENING.exec(line.trim());
      if (!match) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve(match[1]);
    });
  });
}

/** utime + stime from /proc/<pid>/stat (fields 14 and 15, in clock ticks of 1/100 s on Linux). */
function cpuSecondsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}
