import type { WorkbookQuota } from '../../main/service/workbooks/workbook-quota';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createService, type Service } from '../../main/service';
import { seedDemo } from '../../main/service/seed/demo';

export const ADMIN_PASSWORD = 'test-admin-password';
export const BASIC = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;

export interface Reply {
  status: number;
  headers: Record<string, string | string[]>;
  text: string;
  // The API answers JSON of many shapes; tests read it the way a client would.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface TestService {
  service: Service;
  dataDir: string;
  logs: string[];
  call(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  get(url: string, headers?: Record<string, string>): Promise<Reply>;
  /** A fingerprint of every resource row: equal before and after means nothing was stored. */
  snapshot(options?: { withTransactions?: boolean }): string;
  close(): void;
}

/** A service on a fresh temp data folder, called in-process through `handle()`. */
export async function openTestService(
  options: { demo?: boolean; release?: string; dataDir?: string; workbookQuota?: WorkbookQuota } = {},
): Promise<TestService> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'workstation-test-'));
  const logs: string[] = [];
  const service = await createService({
    dataDir,
    adminPassword: ADMIN_PASSWORD,
    release: options.release,
    log: (line) => logs.push(line),
    workbookQuota: options.workbookQuota,
  });
  if (options.demo) {
    const admin = service.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
    await seedDemo(service, { pkid: admin.pkid, username: 'admin', role: 'admin', hierarchyPkid: admin.hierarchyPkid });
  }
  const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const raw = body === undefined ? undefined : typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
    // A JSON body goes as a client sends one: declared application/json (the service refuses others).
    const declared =
      raw === undefined || raw instanceof Uint8Array || Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
    const typed = declared ? headers : { 'content-type': 'application/json', ...headers };
    const response = await service.handle({ method, url, headers: { authorization: BASIC, ...typed }, body: raw });
    const text = typeof response.body === 'string' ? response.body : Buffer.from(response.body).toString('utf8');
    const isJson = String(response.headers['content-type'] ?? '').startsWith('application/json');
    return { status: response.status, headers: response.headers, text, body: isJson ? JSON.parse(text) : undefined };
  };
  const snapshot = ({ withTransactions = false } = {}): string => {
    const hash = createHash('sha256');
    const tables = ['nodes', 'instances', 'user_credentials', ...(withTransactions ? ['transactions', 'transaction_logs'] : [])];
    for (const table of tables) {
      for (const row of service.store.db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()) hash.update(JSON.stringify(row));
    }
    return hash.digest('hex');
  };
  return {
    service,
    dataDir,
    logs,
    call,
    get: (url, headers) => call('GET', url, undefined, headers),
    snapshot,
    close() {
      service.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const PARIS = 'sys.hcs.Telco.Acme.Paris';
export const LONDON = 'sys.hcs.Telco.Acme.London';
export const ACME = 'sys.hcs.Telco.Acme';

export const q = (hierarchy: string, extra = ''): string => `?hierarchy=${encodeURIComponent(hierarchy)}${extra}`;
