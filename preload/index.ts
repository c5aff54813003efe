import { contextBridge, ipcRenderer } from 'electron';

/**
 * The renderer's only door: named functions, never a generic invoke(channel). Its type is
 * derived from this object (`WorkstationBridge`), so the renderer cannot drift from it.
 */
interface BridgeRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

interface BridgeResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: string | Uint8Array;
}

const bridge = {
  request: (request: BridgeRequest): Promise<BridgeResponse> => ipcRenderer.invoke('api:request', request),
};

export type WorkstationBridge = typeof bridge;

contextBridge.exposeInMainWorld('workstation', bridge);
