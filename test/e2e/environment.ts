import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startHttpServer, type HttpHost } from '../../main/host/http-server';
import { createService, type Service } from '../../main/service';
import type { ApiRequest } from '../../main/service/api-types';
import type { Principal } from '../../main/service/auth/principal';
import { seedDemo } from '../../main/service/seed/demo';
import { registerApiHandler, API_CHANNEL, type IpcEventLike, type IpcMainLike } from '../../main/shell/api-ipc';
import { ADMIN, ApiClient, type Credentials } from '../http/api-client';
import { startServe, TEST_PASSWORD, type ServeProcess } from '../http/serve-process';
import { RENDERER_DIR, VIEWPORT } from './browser';
import { installIpcBridge, sendServiceEvent } from './ipc-bridge';
import { forwardServiceEvents } from '../../main/shell/service-events';

/**
 * One real service per transport and test file, on a fresh data folder with the demo world.
 * `http`: the compiled `serve` command as a child process; the page signs in with the form.
 * `ipc`: the service in this process, the renderer served from it, and every API call of the
 * page sent through the shell's own `api:request` handler as the local user (no sign-in form).
 * Either way `api` reaches the same store over HTTP with Basic auth, to set up and to check.
 */
export type TransportName = 'http' | 'ipc';
export const TRANSPORTS: [TransportName][] = [['http'], ['ipc']];

export interface E2eEnv {
  readonly transport: TransportName;
  /** The app's page. */
  readonly url: string;
  /** Admin over HTTP with Basic auth. */
  readonly api: ApiClient;
  /** A page with the app loaded and its ready marker set (the sign-in page, over HTTP). */
  open(context: BrowserContext, user?: Credentials): Promise<Page>;
  close(): Promise<void>;
}

export const newContext = (browser: {
  newContext(options: { viewport: typeof VIEWPORT }): Promise<BrowserContext>;
}): Promise<BrowserContext> => browser.newContext({ viewport: VIEWPORT });

/** Loads the app and waits for its ready marker: never a sleep. */
export async function loadApp(page: Page, url: string): Promise<void> {
  page.on('pageerror', (error) => console.log(`e2e page error: ${error.message}`));
  await page.goto(url);
  await page.locator('[data-app-state="ready"]').waitFor();
}

export function startEnv(transport: TransportName): Promise<E2eEnv> {
  return transport === 'http' ? startHttpEnv() : startIpcEnv();
}

async function startHttpEnv(): Promise<E2eEnv> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ws-e2e-http-'));
  let server: ServeProcess | undefined;
  try {
    server = await startServe({ dataDir, seed: 'demo', adminPassword: TEST_PASSWORD, readyTimeoutMs: 30_000 });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const running = server;
  return {
    transport: 'http',
    url: running.url,
    api: new ApiClient(running.url, ADMIN),
    async open(context) {
      const page = await context.newPage();
      await loadApp(page, running.url);
      return page;
    },
    async close() {
      await running.stop().catch(() => running.kill());
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** ipcMain as the handler sees it, with `invoke` standing in for the renderer's ipcRenderer. */
class BindingIpcMain implements IpcMainLike {
  private listener?: (event: IpcEventLike, ...args: unknown[]) => unknown;
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void {
    if (channel === API_CHANNEL) this.listener = listener;
  }
  invoke(senderUrl: string, request: unknown): Promise<unknown> {
    if (!this.listener) throw new Error('no api:request handler registered');
    return Promise.resolve(this.listener({ senderFrame: { url: senderUrl } }, request));
  }
}

function principalOf(service: Service, username: string): Principal {
  const user = service.store.instances.findByKey('data/User', JSON.stringify([username]))[0];
  if (!user) throw new Error(`no user ${username} in the store`);
  const role = String(user.data.role) as Principal['role'];
  return { pkid: user.pkid, username, role, hierarchyPkid: user.hierarchyPkid };
}

/** The service in this process with the demo world, and the built renderer served from it. */
async function startInProcess(dataDir: string): Promise<{ service: Service; host: HttpHost }> {
  const service = await createService({ dataDir, adminPassword: TEST_PASSWORD, log: () => undefined });
  try {
    await seedDemo(service, principalOf(service, 'admin'));
    return { service, host: await startHttpServer({ service, port: 0, staticDir: RENDERER_DIR }) };
  } catch (error) {
    service.close();
    throw error;
  }
}

/** A window as the shell makes it: the principal fixed for the window, the sender checked on every call. */
async function openIpcPage(service: Service, host: HttpHost, context: BrowserContext, user: Credentials): Promise<Page> {
  const page = await context.newPage();
  const principal = principalOf(service, user.username);
  const origin = new URL(host.url).origin;
  const ipc = new BindingIpcMain();
  registerApiHandler(
    ipc,
    (request: ApiRequest) => service.handleAs(principal, request),
    (url) => url.startsWith(`${origin}/`),
  );
  await installIpcBridge(page, (senderUrl, request) => ipc.invoke(senderUrl, request));
  // Nothing may reach the service over HTTP from this page: every call must take the bridge.
  await page.route(/\/(api|workstation|noninteractivelogin|logout)\//, (route) => route.abort('blockedbyclient'));
  return page;
}

async function startIpcEnv(): Promise<E2eEnv> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ws-e2e-ipc-'));
  const { service, host } = await startInProcess(dataDir).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const pages = new Set<Page>();
  // The shell's own forwarder, as it relays the service's events to its window.
  const stopForwarding = forwardServiceEvents(service.events, {
    send: (_channel, event) => pages.forEach((page) => void sendServiceEvent(page, event)),
    isDestroyed: () => false,
  });
  return {
    transport: 'ipc',
    url: host.url,
    api: new ApiClient(host.url, ADMIN),
    async open(context, user = ADMIN) {
      const page = await openIpcPage(service, host, context, user);
      pages.add(page);
      page.on('close', () => pages.delete(page));
      await loadApp(page, host.url);
      return page;
    },
    async close() {
      stopForwarding();
      await host.close();
      await service.idle();
      service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
