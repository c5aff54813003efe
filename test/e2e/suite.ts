import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { failureShot, launchBrowser, reportSkip } from './browser';
import { newContext, startEnv, type E2eEnv, type TransportName } from './environment';

/**
 * The fixtures every e2e file shares: one browser per file, one service per transport, a fresh
 * browser context per test, and a screenshot of what the user saw when a flow fails.
 */
export interface SharedBrowser {
  /** True where the suite cannot run (no Chromium); the reason has been printed. */
  skip: boolean;
  get(): Browser;
}

export function useBrowser(file: string): SharedBrowser {
  const skip = reportSkip(file);
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!skip) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    skip,
    get() {
      if (!browser) throw new Error('the browser is not running');
      return browser;
    },
  };
}

export interface FlowFixtures {
  env(): E2eEnv;
  context(): BrowserContext;
}

/** Call inside a transport's describe: the service starts once, with `prepare` run on it. */
export function useFlows(transport: TransportName, shared: SharedBrowser, prepare?: (env: E2eEnv) => Promise<void>): FlowFixtures {
  let env: E2eEnv | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    env = await startEnv(transport);
    await prepare?.(env);
  });
  afterAll(async () => {
    await env?.close();
  });
  beforeEach(async () => {
    context = await newContext(shared.get());
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') await failureShot(context, transport, task.name);
    await context?.close();
    context = undefined;
  });
  return {
    env() {
      if (!env) throw new Error(`the ${transport} service is not running`);
      return env;
    },
    context() {
      if (!context) throw new Error('no browser context for this test');
      return context;
    },
  };
}
