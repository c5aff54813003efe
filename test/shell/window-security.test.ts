import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { APP_CSP, hardenApp, hardenSession, hardenWindow, isAppPage, secureWebPreferences } from '../../main/shell/window-security';

/**
 * The hardening run against stand-ins for Electron's objects: each records the handler it is
 * given, and the test calls that handler the way Electron would. The _electron suite proves the
 * same rules in a real window where a binary exists.
 */
const APP_PAGE = 'file:///opt/workstation/resources/app.asar/dist/renderer/index.html';

class FakeContents extends EventEmitter {
  openHandler?: (details: { url: string }) => { action: string };
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.openHandler = handler;
  }
  /** Emits like Electron: returns whether a listener prevented the default. */
  attempt(name: string, params: Record<string, unknown>): boolean {
    let prevented = false;
    this.emit(name, { ...params, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

function fakeSession() {
  const handlers: Record<string, (...args: never[]) => unknown> = {};
  const session = {
    setPermissionRequestHandler: (h: (...args: never[]) => unknown) => (handlers.request = h),
    setPermissionCheckHandler: (h: (...args: never[]) => unknown) => (handlers.check = h),
    setDevicePermissionHandler: (h: (...args: never[]) => unknown) => (handlers.device = h),
    webRequest: { onHeadersReceived: (h: (...args: never[]) => unknown) => (handlers.headers = h) },
  };
  return { session, handlers };
}

describe('window security', () => {
  it('asks for an isolated, sandboxed renderer without Node or webviews', () => {
    expect(secureWebPreferences('/app/preload/index.js')).toMatchObject({
      preload: '/app/preload/index.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('knows the app page, whatever its route, and nothing else', () => {
    expect(isAppPage(APP_PAGE, APP_PAGE)).toBe(true);
    expect(isAppPage(APP_PAGE, `${APP_PAGE}#/transactions`)).toBe(true);
    for (const url of [
      'https://example.com/',
      'file:///etc/passwd',
      `${APP_PAGE}/../../secret.html`,
      'about:blank',
      '',
      'javascript:alert(1)',
    ]) {
      expect(isAppPage(APP_PAGE, url)).toBe(false);
    }
  });

  it('denies new windows, navigation away, subframes, redirects and webviews', () => {
    const contents = new FakeContents();
    hardenWindow({ webContents: contents as never }, APP_PAGE);
    expect(contents.openHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.attempt('will-navigate', { url: 'https://example.com/' })).toBe(true);
    expect(contents.attempt('will-navigate', { url: 'file:///etc/passwd' })).toBe(true);
    expect(contents.attempt('will-navigate', { url: `${APP_PAGE}#/search` })).toBe(false);
    expect(contents.attempt('will-frame-navigate', { url: 'https://example.com/', isMainFrame: true })).toBe(true);
    expect(contents.attempt('will-frame-navigate', { url: APP_PAGE, isMainFrame: false })).toBe(true);
    expect(contents.attempt('will-redirect', { url: 'https://example.com/' })).toBe(true);
    expect(contents.attempt('will-attach-webview', {})).toBe(true);
  });

  it('sandboxes every renderer and hardens contents it did not create', () => {
    const app = new EventEmitter() as EventEmitter & { sandboxed?: boolean; enableSandbox(): void };
    app.enableSandbox = () => (app.sandboxed = true);
    hardenApp(app as never);
    expect(app.sandboxed).toBe(true);
    const contents = new FakeContents();
    app.emit('web-contents-created', {}, contents);
    expect(contents.openHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.attempt('will-attach-webview', {})).toBe(true);
  });

  it('grants no permission, checked or requested, and puts the CSP on every response', () => {
    const { session, handlers } = fakeSession();
    hardenSession(session as never);
    let granted: boolean | undefined;
    (handlers.request as (c: unknown, p: string, cb: (g: boolean) => void) => void)({}, 'media', (g) => (granted = g));
    expect(granted).toBe(false);
    expect((handlers.check as (...args: unknown[]) => boolean)({}, 'clipboard-read')).toBe(false);
    expect((handlers.device as (...args: unknown[]) => boolean)({ deviceType: 'usb' })).toBe(false);
    let headers: Record<string, string[]> | undefined;
    (handlers.headers as (d: unknown, cb: (r: { responseHeaders: Record<string, string[]> }) => void) => void)(
      { responseHeaders: { 'Content-Type': ['text/html'] } },
      (r) => (headers = r.responseHeaders),
    );
    expect(headers).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [APP_CSP] });
    expect(APP_CSP).toContain("script-src 'self'");
    expect(APP_CSP).toContain("object-src 'none'");
    expect(APP_CSP).not.toContain('unsafe-eval');
  });
});
