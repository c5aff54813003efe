import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHttpServer, type HttpHost } from '../../main/host/http-server';
import { createService, type Service } from '../../main/service';
import type { WorkbookInfo } from '../../main/service/contract/workbook-api';
import type { RemoteProfile, RemoteProfileInput } from '../../main/service/contract/workstation-api';
import { startServe, tempDataDir, TEST_PASSWORD, type ServeProcess } from '../http/serve-process';

/**
 * Two real services: the remote, a compiled `serve` child (as a customer's deployment, demo
 * world, a chosen release), and the local workstation in this process behind its HTTP host,
 * with a remote profile pointing at the remote. Nothing of either is mocked.
 */
export const LOCAL_PASSWORD = 'local-admin-password-1';
export const REMOTE_PASSWORD = TEST_PASSWORD;
export const ACME = 'sys.hcs.Telco.Acme';
export const PARIS = 'sys.hcs.Telco.Acme.Paris';

export interface Reply {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  // Answers of many shapes, read as a client would.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  ms: number;
}

export interface CallOptions {
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
}

export class Client {
  constructor(
    readonly baseUrl: string,
    private readonly authorization: string | undefined,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  async call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...this.extraHeaders, ...options.headers };
    if (this.authorization) headers.authorization = this.authorization;
    let body: string | FormData | undefined = options.form;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    const started = performance.now();
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
    return {
      status: response.status,
      headers: response.headers,
      bytes,
      text,
      body: isJson ? JSON.parse(text) : undefined,
      ms: performance.now() - started,
    };
  }

  get(path: string, options?: CallOptions): Promise<Reply> {
    return this.call('GET', path, options);
  }
}

export const basic = (username: string, password: string): string => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

export interface LocalWorkstation {
  service: Service;
  host: HttpHost;
  dataDir: string;
  logs: string[];
  /** As the local admin, in the Local workspace. */
  admin: Client;
  /** As the local admin, in the live workspace of `profile`. */
  live(profile: string, authorization?: string): Client;
  addProfile(input: RemoteProfileInput): Promise<RemoteProfile>;
  close(): Promise<void>;
}

export async function openLocal(): Promise<LocalWorkstation> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ws-local-'));
  const logs: string[] = [];
  const service = await createService({ dataDir, adminPassword: LOCAL_PASSWORD, log: (line) => logs.push(line) });
  const host = await startHttpServer({ service, port: 0 });
  const auth = basic('admin', LOCAL_PASSWORD);
  const admin = new Client(host.url, auth);
  return {
    service,
    host,
    dataDir,
    logs,
    admin,
    live: (profile, authorization = auth) => new Client(host.url, authorization, { 'x-workstation-workspace': profile }),
    async addProfile(input) {
      const made = await admin.call('POST', '/workstation/remote-profiles/', { json: input });
      if (made.status !== 200) throw new Error(`profile: ${made.text}`);
      return made.body.profile as RemoteProfile;
    },
    async close() {
      await host.close();
      await service.idle();
      service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startRemote(release: string): Promise<{ remote: ServeProcess; direct: Client }> {
  const remote = await startServe({ dataDir: tempDataDir(), seed: 'demo', release, readyTimeoutMs: 30_000 });
  return { remote, direct: new Client(remote.url, basic('admin', REMOTE_PASSWORD)) };
}

/** Polls a transaction until it is finished, through the given client. */
export async function settled(client: Client, transactionId: string): Promise<Reply> {
  for (let i = 0; i < 200; i += 1) {
    const answer = await client.get(`/api/tool/Transaction/${transactionId}/`);
    const status = answer.body?.data?.status as string | undefined;
    if (status && !['Queued', 'In Progress', 'Processing'].includes(status)) return answer;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`transaction ${transactionId} did not finish`);
}

/** Counts the remote's top-level transactions, read directly: how many writes it really received. */
export async function remoteTransactionCount(direct: Client): Promise<number> {
  const answer = await direct.get(`/api/tool/Transaction/?hierarchy=sys&limit=1`);
  return answer.body.pagination.total as number;
}

/** Polls a staged workbook until it is no longer staging, validating or planning. */
export async function settledWorkbook(client: Client, id: string): Promise<WorkbookInfo> {
  for (let i = 0; i < 1200; i += 1) {
    const info = (await client.get(`/workstation/workbooks/${id}/`)).body.workbook as WorkbookInfo;
    if (!['staging', 'validating', 'planning'].includes(info.state)) return info;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`workbook ${id} did not settle`);
}

/** The points of a push at which the kill and network-cut tests stop it. */
export type PushPoint = 'uploaded' | 'submitted' | 'halfway' | 'outcomes';

export interface PushRow {
  push_id: string;
  state: string;
  remote_transaction_id: string | null;
}

/** The last push a workstation recorded, read from its workspace file in `dataDir`. */
export function lastPushIn(dataDir: string): PushRow | undefined {
  const db = new Database(join(dataDir, 'workspaces', 'Local.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT push_id, state, remote_transaction_id FROM workbook_pushes ORDER BY created_at DESC LIMIT 1').get() as
      PushRow | undefined;
  } finally {
    db.close();
  }
}

/**
 * Whether `push` has reached `point`: its file uploaded (a push records `submitting` before it
 * sends its load: in either, it has not finished submitting), its load submitted, the remote
 * halfway through that load, or at its end (the outcomes are read next).
 */
export async function pushReached(point: PushPoint, push: PushRow | undefined, direct: Client): Promise<boolean> {
  if (point === 'uploaded') return push?.state === 'uploaded' || push?.state === 'submitting';
  if (point === 'submitted') return push?.state === 'submitted';
  if (!push?.remote_transaction_id) return false;
  const tx = await direct.get(`/api/tool/Transaction/${push.remote_transaction_id}/?format=json`);
  const done = /^\[ (\d+)\/(\d+) \]/.exec(String(tx.body?.data?.detail ?? ''));
  const status = String(tx.body?.data?.status ?? '');
  if (point === 'halfway') return done !== null && Number(done[1]) * 2 >= Number(done[2]);
  return !['Queued', 'In Progress', 'Processing'].includes(status);
}
