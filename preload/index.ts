import { contextBridge, ipcRenderer } from 'electron';
import type {
  ApiChannel,
  BridgeRequest,
  BridgeResponse,
  EventChannel,
  OpenFileChannel,
  SaveFileChannel,
  SaveFileRequest,
  ServiceEvent,
  WorkstationBridge as BridgeContract,
} from './bridge-types';

/**
 * The renderer's only door: named functions, never a generic invoke(channel). A sandboxed
 * preload cannot require local files, so this file imports types only besides electron.
 */
const API_CHANNEL: ApiChannel = 'api:request';
const EVENT_CHANNEL: EventChannel = 'service:event';
const OPEN_FILE_CHANNEL: OpenFileChannel = 'file:open-workbook';
const SAVE_FILE_CHANNEL: SaveFileChannel = 'file:save';

const bridge = {
  request: (request: BridgeRequest): Promise<BridgeResponse> => ipcRenderer.invoke(API_CHANNEL, request),
  onEvent: (listener: (event: ServiceEvent) => void): (() => void) => {
    // The IPC event (and its sender) never reaches the page: only the payload does.
    const relay = (_event: unknown, payload: ServiceEvent): void => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, relay);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, relay);
    };
  },
  openWorkbookFile: (hierarchy: string): Promise<BridgeResponse | null> => ipcRenderer.invoke(OPEN_FILE_CHANNEL, hierarchy),
  saveFile: (file: SaveFileRequest): Promise<boolean> => ipcRenderer.invoke(SAVE_FILE_CHANNEL, file),
};

/** Derived from the implementation above. */
export type WorkstationBridge = typeof bridge;

// Fails to compile when the implementation and the renderer's contract drift apart.
type Exactly<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<Condition extends true> = Condition;
export type BridgeMatchesContract = Assert<Exactly<WorkstationBridge, BridgeContract>>;

contextBridge.exposeInMainWorld('workstation', bridge);
