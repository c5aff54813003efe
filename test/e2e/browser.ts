import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core: no browser download on the build machines. Where
 * the executable is missing the suite is skipped with a printed reason instead of failing.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const VIEWPORT = { width: 1440, height: 900 };
export const SCREENSHOT_DIR = resolve(__dirname, '..', '..', 'test-results', 'screenshots');
export const RENDERER_DIR = resolve(__dirname, '..', '..', 'dist', 'renderer');

/** Why the suite cannot run here, or undefined when it can. */
export function skipReason(): string | undefined {
  if (!existsSync(CHROMIUM_PATH)) return `no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH or install chromium)`;
  return undefined;
}

const reported = new Set<string>();

/** Prints the skip reason once per file, so a skipped suite says why in the test output. */
export function reportSkip(file: string): boolean {
  const reason = skipReason();
  if (reason && !reported.has(file)) {
    reported.add(file);
    console.log(`e2e suite ${file} skipped: ${reason}`);
  }
  return reason !== undefined;
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error(`The renderer is not built (${RENDERER_DIR}/index.html is missing): run npm run build:web first.`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** test-results/screenshots/<transport>-<name>.png, kept as a test artifact (git-ignored). */
export async function screenshot(page: Page, transport: string, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${transport}-${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** A failed flow leaves a picture of what the user saw: test-results/screenshots/<transport>-failed-<test>.png. */
export async function failureShot(context: BrowserContext | undefined, transport: string, testName: string): Promise<void> {
  const page = context?.pages()[0];
  if (!page || page.isClosed()) return;
  const name = `failed-${testName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)}`;
  const path = await screenshot(page, transport, name).catch(() => undefined);
  if (path) console.log(`e2e: screenshot of the failed flow: ${path}`);
}
