import type { EventEmitter } from 'node:events';
import type { EventChannel, ServiceEvent } from '../../preload/bridge-types';
import type { LoadProgressEvent, TransactionEvent } from '../service/transactions/engine';

export const EVENT_CHANNEL: EventChannel = 'service:event';

/** The part of webContents the forwarding needs. */
export interface EventSink {
  send(channel: EventChannel, event: ServiceEvent): void;
  isDestroyed(): boolean;
}

/**
 * Relays the service's events to the window on one fixed channel, so views can refresh without
 * polling: top-level transactions as they change state, and a bulk load's progress once per
 * batch. A load's sub-transactions are not relayed one by one: 100,000 rows would be 100,000
 * messages to the window, where the progress event already says how far it is.
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
  events.on('transaction', relayTransaction);
  events.on('progress', relayProgress);
  return () => {
    events.off('transaction', relayTransaction);
    events.off('progress', relayProgress);
  };
}
