import type { Page } from 'playwright-core';
import type { ApiResponse } from '../../main/service/api-types';

/**
 * The Electron preload, played by Playwright: `window.workstation.request` forwards each call
 * through a page binding to the shell's real `api:request` handler in this test process. The
 * renderer finds the bridge before it starts and picks the IPC transport by itself.
 *
 * A binding carries JSON only, so bytes (uploads, exports) cross as base64 both ways.
 */
export type WireBody = string | { base64: string } | undefined;

export interface WireRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: WireBody;
}

export interface WireAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: WireBody;
}

/** What the binding calls: the sender frame's URL and the decoded request. */
export type IpcInvoke = (senderUrl: string, request: unknown) => Promise<unknown>;

/** Runs in the page before any of its scripts; plain JS types only (no DOM lib here). */
function bridgeScript(): void {
  type Bytes = Uint8Array;
  type Listener = (event: unknown) => void;
  const scope = globalThis as unknown as {
    workstation?: unknown;
    __workstationIpc(
      request: unknown,
    ): Promise<{ status: number; headers: Record<string, string | string[]>; body: string | { base64: string } }>;
    __workstationEvent?(event: unknown): void;
  };
  const toBase64 = (bytes: Bytes): string => {
    let text = '';
    for (const byte of bytes) text += String.fromCharCode(byte);
    return btoa(text);
  };
  const fromBase64 = (text: string): Bytes => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const listeners = new Set<Listener>();
  scope.workstation = {
    async request(request: { method: string; url: string; headers?: Record<string, string>; body?: string | Bytes }) {
      const body = request.body instanceof Uint8Array ? { base64: toBase64(request.body) } : request.body;
      const answer = await scope.__workstationIpc({ ...request, body });
      return { ...answer, body: typeof answer.body === 'string' ? answer.body : fromBase64(answer.body.base64) };
    },
    onEvent(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  scope.__workstationEvent = (event) => listeners.forEach((listener) => listener(event));
}

function decodeBody(body: WireBody): string | Uint8Array | undefined {
  if (body === undefined || typeof body === 'string') return body;
  return new Uint8Array(Buffer.from(body.base64, 'base64'));
}

function encodeAnswer(answer: ApiResponse): WireAnswer {
  const body = typeof answer.body === 'string' ? answer.body : { base64: Buffer.from(answer.body).toString('base64') };
  return { status: answer.status, headers: answer.headers, body };
}

/** Installs the bridge on a page before it loads; every call goes to `invoke` as the shell's would. */
export async function installIpcBridge(page: Page, invoke: IpcInvoke): Promise<void> {
  await page.exposeBinding('__workstationIpc', async (source, wire: WireRequest) => {
    const answer = (await invoke(source.frame.url(), { ...wire, body: decodeBody(wire.body) })) as ApiResponse;
    return encodeAnswer(answer);
  });
  await page.addInitScript(bridgeScript);
}

/** Delivers a service event to the page's `onEvent` listeners, as the shell's forwarder does. */
export async function sendServiceEvent(page: Page, event: unknown): Promise<void> {
  if (page.isClosed()) return;
  await page
    .evaluate((payload) => (globalThis as unknown as { __workstationEvent?(e: unknown): void }).__workstationEvent?.(payload), event)
    .catch(() => undefined);
}
