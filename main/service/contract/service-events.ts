/**
 * Events the service emits that leave it (to the desktop window over IPC). Types only, without
 * Node or DOM types, so the service, the preload bridge and the renderer share one declaration
 * (tsconfig.web.json includes this file).
 */

/** A bulk load moved on: once per batch, with the parent's detail as it now reads. */
export interface LoadProgressEvent {
  transaction_id: string;
  done: number;
  succeeded: number;
  failed: number;
  total: number;
  /** The parent's detail as it now reads: `[ 41000/100000 ] succeeded from [ 1 ] sheet in lines.xlsx`. */
  detail: string;
}
