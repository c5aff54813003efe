import type { EventEmitter } from 'node:events';
import type { EventChannel } from '../../preload/bridge-types';
import type { LoadProgressEvent, ServiceEvent, SyncEvent, TransactionEvent, WorkbookEvent } from '../service/contract/service-events';

export const EVENT_CHANNEL: EventChannel = 'service:event';

/** The part of webContents the forwarding needs. */
export interface EventSink {
  send(channel: EventChannel, event: ServiceEvent): void;
  isDestroyed(): boolean;
}

/**
 * Relays the service's events to the window on one fixed channel, so views can refresh without
 * polling: top-level transactions as they change state, a bulk load's progress once per batch,
 * and staged workbooks as they change. A load's sub-transactions are not relayed one by one:
 * 100,000 rows would be 100,000 messages to the window, where the progress event already says
 * how far it is. Nothing is filtered by user here, unlike the HTTP event stream: the desktop
 * window has one user, the local one the shell signs in, who sees everything in the service.
 * Returns the unsubscribe the shell calls when the window closes.
 */
export function forwardServiceEvents(events: EventEmitter, target: EventSink): () => void {
  const send = (event: ServiceEvent): void => {
    if (!target.isDestroyed()) target.send(EVENT_CHANNEL, event);
  };
  const relayTransaction = (event: TransactionEvent): void => {
    if (event.parent_id === null) send({ type: 'transaction', ...event });
  };
  const relayProgress = (event: LoadProgressEvent): void => send({ type: 'progress', ...event });
  const relayWorkbook = (event: WorkbookEvent): void => send({ type: 'workbook', ...event });
  const relaySync = (event: SyncEvent): void => send({ type: 'sync', ...event });
  events.on('transaction', relayTransaction);
  events.on('progress', relayProgress);
  events.on('workbook', relayWorkbook);
  events.on('sync', relaySync);
  return () => {
    events.off('transaction', relayTransaction);
    events.off('progress', relayProgress);
    events.off('workbook', relayWorkbook);
    events.off('sync', relaySync);
  };
}
