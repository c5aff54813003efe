import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Runs the compiled `serve` command as a real child process, the way a user starts server mode,
 * so these tests see what a user sees: the printed lines, the port, signals and exit codes.
 * Every process and temp folder made here is tracked, so `cleanupServers()` in an afterAll
 * leaves nothing behind even when a test failed half-way.
 */

/**
 * The compiled CLI: tests drive what `npm run build:node` produced, not the sources.
 * WORKSTATION_TEST_CLI points the suite at another build (a packaged app, a patched copy).
 */
export const CLI_PATH = process.env.WORKSTATION_TEST_CLI ?? resolve(__dirname, '..', '..', 'dist', 'main', 'cli.js');
export const LISTENING_LINE = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/;
export const PASSWORD_LINE = /^created user admin at sys with password (\S+) \(shown once: keep it\)$/;
export const TEST_PASSWORD = 'http-suite-secret-1';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServeOptions {
  dataDir: string;
  seed?: 'demo';
  release?: string;
  /** WORKSTATION_ADMIN_PASSWORD for the child; null leaves it unset (random password). */
  adminPassword?: string | null;
  readyTimeoutMs?: number;
}

const running = new Set<ServeProcess>();
const tempDirs = new Set<string>();

/** A fresh, empty data folder, removed by `cleanupServers()`. */
export function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ws-http-'));
  tempDirs.add(dir);
  return dir;
}

export class ServeProcess {
  url = '';
  port = 0;
  readonly exited: Promise<ExitInfo>;
  private stdout = '';
  private stderr = '';
  private exitInfo: ExitInfo | undefined;

  constructor(readonly child: ChildProcess) {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((done) => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        running.delete(this);
        done(this.exitInfo);
      });
    });
    running.add(this);
  }

  get stdoutText(): string {
    return this.stdout;
  }

  get stderrText(): string {
    return this.stderr;
  }

  /** Complete lines printed so far (a trailing partial line is left out). */
  get stdoutLines(): string[] {
    const lines = this.stdout.split('\n');
    lines.pop();
    return lines;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** Sends a signal and waits for the exit; a process that hangs is killed and reported. */
  async stop(signal: 'SIGTERM' | 'SIGINT' = 'SIGTERM', timeoutMs = 10_000): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    this.child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((done) => (timer = setTimeout(() => done('hung'), timeoutMs)));
    const outcome = await Promise.race([this.exited, hung]);
    clearTimeout(timer);
    if (outcome === 'hung') {
      await this.kill();
      throw new Error(`serve did not exit within ${timeoutMs} ms of ${signal}; stderr: ${this.stderr}`);
    }
    return outcome;
  }

  /** SIGKILL: the process gets no chance to close anything, like a crash or a power cut. */
  async kill(): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    this.child.kill('SIGKILL');
    return this.exited;
  }

  /** Resolves with the URL once the listening line is printed. */
  waitForListening(timeoutMs: number): Promise<string> {
    return new Promise((resolvePromise, reject) => {
      const check = (): boolean => {
        const line = this.stdoutLines.find((candidate) => LISTENING_LINE.test(candidate));
        const match = line === undefined ? null : LISTENING_LINE.exec(line);
        if (!match) return false;
        this.url = match[1];
        this.port = Number(match[2]);
        finish();
        resolvePromise(this.url);
        return true;
      };
      const onData = (): void => void check();
      const onExit = (): void => {
        finish();
        reject(new Error(`serve exited before listening; stdout: ${this.stdout} stderr: ${this.stderr}`));
      };
      const timer = setTimeout(() => {
        finish();
        void this.kill();
        reject(new Error(`serve printed no listening line within ${timeoutMs} ms; stdout: ${this.stdout} stderr: ${this.stderr}`));
      }, timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        this.child.stdout?.off('data', onData);
        this.child.off('exit', onExit);
      };
      this.child.stdout?.on('data', onData);
      this.child.once('exit', onExit);
      check();
    });
  }
}

function childEnv(adminPassword: string | null): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The parent's own settings must not leak into the child and change what it prints.
  delete env.WORKSTATION_ADMIN_PASSWORD;
  delete env.WORKSTATION_DATA;
  if (adminPassword !== null) env.WORKSTATION_ADMIN_PASSWORD = adminPassword;
  return env;
}

/** Starts `serve --port 0` on the data folder and waits for its listening line. */
export async function startServe(options: ServeOptions): Promise<ServeProcess> {
  const args = [CLI_PATH, 'serve', '--port', '0', '--data', options.dataDir];
  if (options.seed) args.push('--seed', options.seed);
  if (options.release) args.push('--release', options.release);
  const child = spawn(process.execPath, args, {
    env: childEnv(options.adminPassword === undefined ? TEST_PASSWORD : options.adminPassword),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = new ServeProcess(child);
  await server.waitForListening(options.readyTimeoutMs ?? 15_000);
  return server;
}

/** Kills whatever is still running and removes the temp folders; safe to call twice. */
export async function cleanupServers(): Promise<void> {
  await Promise.all([...running].map((server) => server.kill()));
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}
