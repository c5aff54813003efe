import type { EventEmitter } from 'node:events';
import type { EventChannel, ServiceEvent } from '../../preload/bridge-types';
import type { TransactionEvent } from '../service/transactions/engine';

export const EVENT_CHANNEL: EventChannel = 'service:event';

/** The part of webContents the forwarding needs. */
export interface EventSink {
  send(channel: EventChannel, event: ServiceEvent): void;
  isDestroyed(): boolean;
}

/**
 * Relays the service's transaction events to the window on one fixed channel, so views can
 * refresh without polling. Returns the unsubscribe the shell calls when the window closes.
 */
export function forwardServiceEvents(events: EventEmitter, target: EventSink): () => void {
  const relay = (event: TransactionEvent): void => {
    if (target.isDestroyed()) return;
    target.send(EVENT_CHANNEL, { type: 'transaction', ...event });
  };
  events.on('transaction', relay);
  return () => {
    events.off('transaction', relay);
  };
}
