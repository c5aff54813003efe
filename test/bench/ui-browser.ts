import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { request } from 'undici';
import type { CleanupStack } from './cleanup-stack';
import { PROBE_SCRIPT } from './ui-page-probe';

/** The window size of the screenshots: what an engineer's screen shows. */
const VIEWPORT = { width: 1440, height: 900 };
const ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const path = env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`no Chromium at ${path}: install Debian's chromium or set CHROMIUM_PATH`);
  return path;
}

export async function launchBrowser(cleanup: CleanupStack): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ARGS });
  cleanup.push('close Chromium', () => browser.close());
  return browser;
}

/**
 * Signs in once through the session login, as the sign-in page does, and returns the cookie
 * header for the Node baseline. Every bench page then starts with the session already there, so
 * the app goes straight to its frame.
 */
export async function signIn(origin: string, password: string): Promise<string> {
  const answer = await request(`${origin}/noninteractivelogin/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const text = await answer.body.text();
  if (answer.statusCode !== 200) throw new Error(`the session login answered ${answer.statusCode}: ${text}`);
  const raw = answer.headers['set-cookie'];
  const cookies = (Array.isArray(raw) ? raw : raw ? [raw] : []).map((cookie) => cookie.split(';')[0]);
  if (!cookies.some((cookie) => cookie.startsWith('sessionid='))) throw new Error('the session login set no sessionid cookie');
  return cookies.join('; ');
}

/** A context carrying the session cookies, with the probe injected into every page it opens. */
export async function benchContext(browser: Browser, origin: string, cookieHeader: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const cookies = cookieHeader.split('; ').map((pair) => {
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url: origin, httpOnly: true, sameSite: 'Lax' as const };
  });
  await context.addCookies(cookies);
  await context.addInitScript({ content: PROBE_SCRIPT });
  return context;
}
