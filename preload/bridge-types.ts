/**
 * The bridge's contract as plain types, importable type-only by the renderer (whose tsconfig
 * has neither Node nor Electron types) and by the shell. preload/index.ts implements it and
 * checks at compile time that its derived type is exactly this one.
 */
import type { ServiceEvent } from '../main/service/contract/service-events';

export interface BridgeRequest {
  method: string;
  /** Path and query under /api/ or /workstation/, e.g. `/api/data/Countries/?hierarchy=sys`. */
  url: string;
  /** Header names in lower case. */
  headers?: Record<string, string>;
  /** JSON text, or bytes for uploads. */
  body?: string | Uint8Array;
}

export interface BridgeResponse {
  status: number;
  headers: Record<string, string | string[]>;
  /** JSON text, or bytes (spreadsheets, exports). Faults arrive here too, as data. */
  body: string | Uint8Array;
}

/** A file the page offers to save: its suggested name (never a path) and its bytes. */
export interface SaveFileRequest {
  fileName: string;
  bytes: string | Uint8Array;
}

/** What `onEvent` hands over: the service's one declaration of its events. */
export type { ServiceEvent };

export interface WorkstationBridge {
  /** One API call, answered by the same `handle()` as HTTP. */
  request(request: BridgeRequest): Promise<BridgeResponse>;
  /** Service events as they happen; the returned function unsubscribes. */
  onEvent(listener: (event: ServiceEvent) => void): () => void;
  /**
   * "Open .xlsx": main shows its open dialog, reads the chosen file and uploads it at
   * `hierarchy` (`POST /api/uploadfiles/`): the upload's answer as `request` answers it (a fault
   * too), or null when the user cancelled. The page never sees or names a path.
   */
  openWorkbookFile(hierarchy: string): Promise<BridgeResponse | null>;
  /** "Save": main shows its save dialog and writes the bytes there; false when the user cancelled. */
  saveFile(file: SaveFileRequest): Promise<boolean>;
}

/** The IPC channels, as types: the preload (which may not import at run time) and the shell both check their literals against these. */
export type ApiChannel = 'api:request';
export type EventChannel = 'service:event';
export type OpenFileChannel = 'file:open-workbook';
export type SaveFileChannel = 'file:save';
