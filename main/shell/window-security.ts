import type { App, BrowserWindow, Session, WebContents, WebPreferences } from 'electron';

/**
 * The window's hardening in one place: an isolated, sandboxed renderer without Node, no new
 * windows, no navigation away from the app page, no webviews, no permission grants, and a strict
 * CSP on everything the session loads. The page talks to the service only through the preload.
 */
export const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Spelled out even where Electron's defaults agree, so a changed default cannot loosen them. */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
  };
}

/**
 * Whether `url` is the app page itself. The hash and query are ignored (in-page routing); the
 * scheme and path must match exactly, so another local file or any remote page is refused.
 */
export function isAppPage(appUrl: string, url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  parsed.hash = '';
  parsed.search = '';
  return parsed.href === appUrl;
}

/** Before the app is ready: every renderer sandboxed, whatever a window asks for. */
export function hardenApp(app: Pick<App, 'enableSandbox' | 'on'>): void {
  app.enableSandbox();
  // Covers contents not created by main.ts too (devtools, anything a future change opens).
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  // The page loads from file://, where Chromium may skip this hook: renderer/index.html carries
  // the same policy in a meta tag. Here it covers anything else the session would load.
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [APP_CSP] } });
  });
}

export function hardenWindow(window: Pick<BrowserWindow, 'webContents'>, appUrl: string): void {
  hardenContents(window.webContents, appUrl);
}

export function hardenContents(contents: WebContents, appUrl: string): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  const stayOnAppPage = (event: { preventDefault(): void }, url: string): void => {
    if (!isAppPage(appUrl, url)) event.preventDefault();
  };
  contents.on('will-navigate', (event) => stayOnAppPage(event, event.url));
  // Subframes too: the page has no business framing anything, local or remote.
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame) event.preventDefault();
    else stayOnAppPage(event, event.url);
  });
  contents.on('will-redirect', (event) => stayOnAppPage(event, event.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
