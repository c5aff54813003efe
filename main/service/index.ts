import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { ApiRequest, ApiResponse } from './api-types';
import { Authenticator } from './auth/authenticator';
import type { Principal } from './auth/principal';
import { bootstrapStore } from './bootstrap';
import { createStore, type Store } from './domain/store';
import { ApiError } from './errors';
import { ALL_MODELS } from './models/registry';
import { syncSummaryIndexes } from './store/summary-indexes';
import { json, faultResponse } from './responses';
import type { RequestContext } from './request-context';
import { dispatch } from './routes';
import type { RouteDeps } from './routes/deps';
import { ReadCache } from './routes/read-cache';
import { openDatabase } from './store/db';
import { isoMicros } from './store/ids';
import { TransactionEngine, type TransactionEvent } from './transactions/engine';

export type { ApiRequest, ApiResponse } from './api-types';

export interface ServiceOptions {
  /** Folder holding the workspaces (one SQLite file each) and, later, uploads. */
  dataDir: string;
  /** Workspace name; `Local` is the embedded default. */
  workspace?: string;
  /** The release the service behaves as (versioning rules); default 20.1.1. */
  release?: string;
  clock?: () => Date;
  /** Admin password for a new store; else WORKSTATION_ADMIN_PASSWORD, else random. */
  adminPassword?: string;
  /** Where operational messages go (a 500's stack with its request id); default stderr. */
  log?: (line: string) => void;
}

export interface Service {
  handle(request: ApiRequest): Promise<ApiResponse>;
  /** Calls a route as a given user, skipping authentication (seeding, the desktop's own user). */
  handleAs(principal: Principal, request: ApiRequest): Promise<ApiResponse>;
  events: EventEmitter;
  /** Set once, when this open created the admin user with a random password. */
  generatedAdminPassword?: string;
  /** Transactions a killed process had left unfinished, failed and rolled back at this open. */
  recoveredTransactions: number;
  store: Store;
  /** Resolves when every queued transaction has finished. */
  idle(): Promise<void>;
  close(): void;
}

export const MAX_JSON_BODY = 10 * 1024 * 1024;
export const DEFAULT_RELEASE = '20.1.1';

export function workspaceFile(dataDir: string, workspace = 'Local'): string {
  // The name becomes a file name: never a path.
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(workspace)) throw new Error(`Workspace name ${JSON.stringify(workspace)} must be letters, digits, - or _.`);
  return join(dataDir, 'workspaces', `${workspace}.sqlite`);
}

export async function createService(options: ServiceOptions): Promise<Service> {
  const clock = options.clock ?? (() => new Date());
  const now = (): string => isoMicros(clock());
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const db = openDatabase(workspaceFile(options.dataDir, options.workspace));
  syncSummaryIndexes(db, ALL_MODELS);
  const store = createStore(db, now);
  const internalError = (error: unknown, reference: string): void =>
    log(`[${reference}] internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const readCache = new ReadCache(db);
  const engine = new TransactionEngine(db, store.transactions, now, internalError, () => {
    store.nodes.clearCache();
    readCache.invalidate();
  });
  const recoveredTransactions = engine.recoverInterrupted();
  const { generatedPassword } = await bootstrapStore(store, options.adminPassword ?? process.env.WORKSTATION_ADMIN_PASSWORD);
  const authenticator = new Authenticator(store);
  // A changed user (role, node) must be re-read on its next request, not served from the cache.
  engine.events.on('transaction', (event: TransactionEvent) => {
    if (event.model_type === 'data/User' && event.status === 'Success') authenticator.invalidate();
  });
  const deps: RouteDeps = { store, engine, authenticator, release: options.release ?? DEFAULT_RELEASE, readCache };

  // Request ids: a random prefix per process and a counter, cheaper than random bytes per call.
  const idPrefix = randomBytes(4).toString('hex');
  let requestCount = 0;

  async function run(request: ApiRequest, principalOf: () => Promise<Principal>): Promise<ApiResponse> {
    const requestId = `${idPrefix}${(requestCount += 1).toString(16).padStart(4, '0')}`;
    try {
      const url = new URL(request.url, 'http://workstation.local');
      if (!url.pathname.startsWith('/api/')) throw new ApiError(404, 'not-found', `No API resource at ${url.pathname}.`);
      const principal = await principalOf();
      checkBody(request);
      const ctx: RequestContext = {
        request,
        method: request.method.toUpperCase(),
        path: url.pathname,
        query: url.searchParams,
        principal,
        requestId,
      };
      checkFormat(ctx);
      const response = await dispatch(deps, ctx);
      return ctx.method === 'GET' && response.status === 200 && /^(true|1)$/i.test(url.searchParams.get('nowait') ?? '')
        ? { ...response, status: 202 }
        : response;
    } catch (error) {
      if (error instanceof ApiError) {
        const response = faultResponse(error);
        if (error.httpCode === 401 && request.headers?.['x-requested-with'] === 'XMLHttpRequest') {
          delete response.headers['www-authenticate'];
        }
        return response;
      }
      internalError(error, requestId);
      return json(500, {
        success: false,
        http_code: 500,
        code: 'internal-error',
        message: `The service failed on an internal error; quote reference ${requestId} when you report it.`,
      });
    }
  }

  return {
    handle: (request) => run(request, () => authenticator.authenticate(request.headers?.authorization)),
    handleAs: (principal, request) => run(request, () => Promise.resolve(principal)),
    events: engine.events,
    generatedAdminPassword: generatedPassword,
    recoveredTransactions,
    store,
    idle: () => engine.idle(),
    close() {
      engine.close();
      db.close();
    },
  };
}

function checkBody(request: ApiRequest): void {
  const size = request.body === undefined ? 0 : typeof request.body === 'string' ? Buffer.byteLength(request.body) : request.body.byteLength;
  if (size > MAX_JSON_BODY) {
    throw new ApiError(413, 'too-large', `The request body is larger than the ${MAX_JSON_BODY / 1024 / 1024} MB limit.`);
  }
}

function checkFormat(ctx: RequestContext): void {
  const format = ctx.query.get('format');
  if (format === null || format === 'json' || /\/help\/?$/.test(ctx.path)) return;
  throw new ApiError(400, 'bad-parameter', `format must be json, not '${format}'.`, [{ field: 'format', message: 'must be json' }]);
}
