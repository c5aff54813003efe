import { createHttpTransport } from './http-transport';
import { createIpcTransport } from './ipc-transport';
import type { BridgeLike, Transport } from './transport';

/** Chosen once at start: the preload's bridge when present, else same-origin HTTP. */
export function chooseTransport(scope: { workstation?: BridgeLike }): Transport {
  return scope.workstation ? createIpcTransport(scope.workstation) : createHttpTransport();
}
