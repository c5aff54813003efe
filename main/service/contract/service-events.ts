/**
 * Events the service emits that leave it: to the desktop window over IPC (the preload's
 * `onEvent`) and to signed-in pages as Server-Sent Events from `GET /workstation/events/`.
 * Types only, without Node or DOM types, so the service, the preload bridge and the renderer
 * share one declaration (tsconfig.web.json includes this file).
 */

/** A transaction changed state in the service (queued, started, finished). */
export interface TransactionEvent {
  transaction_id: string;
  /** `Queued`, `In Progress`, `Success`, `Fail`... (the engine's TxStatus). */
  status: string;
  parent_id: string | null;
  model_type: string;
  resource_pkid: string | null;
}

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

/** A staged workbook changed: staged, validated, edited, planned or loaded. */
export interface WorkbookEvent {
  id: string;
  state: string;
  revision: number;
  validated_revision: number | null;
}

/**
 * A pull or push of a remote profile moved on: a pull at each model's end and every 2,000
 * instances, a push at each step and each poll of the remote's load. `ended` on the last one.
 */
export interface SyncEvent {
  profile_id: string;
  profile: string;
  action: 'pull' | 'push';
  /** What it is doing, in words: `relation/LineRelation: 40,000`, `submitted: <id>`, `Processing: [ 41/100 ] ...`. */
  text: string;
  ended: boolean;
}

/** The emitter's event names and what each carries (`service.events.on(name, ...)`). */
export interface ServiceEventPayloads {
  transaction: TransactionEvent;
  progress: LoadProgressEvent;
  workbook: WorkbookEvent;
  sync: SyncEvent;
}

/** One event as it crosses a door: the emitter's payload tagged with its name. */
export type ServiceEvent = { [K in keyof ServiceEventPayloads]: { type: K } & ServiceEventPayloads[K] }[keyof ServiceEventPayloads];
