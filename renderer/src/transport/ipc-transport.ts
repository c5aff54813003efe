import type { SaveFileRequest } from '../../../preload/bridge-types';
import { lowerCaseHeaders, urlOf, type BridgeLike, type Transport } from './transport';

/**
 * The Electron window's transport: every call goes through the preload's one `request`
 * function to the shell, which signs the local user in. No port, no cookie, no CSRF token.
 * Events arrive through the preload's `onEvent`.
 */
export function createIpcTransport(bridge: BridgeLike): Transport {
  const { openWorkbookFile, saveFile } = bridge;
  return {
    signIn: 'local',
    async request(method, path, options = {}) {
      const answer = await bridge.request({
        method: method.toUpperCase(),
        url: urlOf(path, options.query),
        headers: options.headers,
        body: options.body,
      });
      return { status: answer.status, headers: lowerCaseHeaders(answer.headers), body: answer.body };
    },
    // The window's channel is open for its whole life: nothing to reconnect, nothing missed, so no onOpen.
    onEvent: (listener) => bridge.onEvent(listener),
    // Main's dialogs, when the bridge has them (a test's injected bridge may not).
    ...(openWorkbookFile && {
      async openFile(hierarchy: string) {
        const answer = await openWorkbookFile(hierarchy);
        return answer && { status: answer.status, headers: lowerCaseHeaders(answer.headers), body: answer.body };
      },
    }),
    ...(saveFile && { saveFile: (file: SaveFileRequest) => saveFile(file) }),
  };
}
