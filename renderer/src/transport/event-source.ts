import type { ServiceEvent } from '../../../preload/bridge-types';
import type { EventListener } from './transport';

/** First wait before connecting again after the service refused or dropped the stream; doubled each time up to the last. */
const RETRY_FIRST_MS = 2_000;
const RETRY_LAST_MS = 30_000;

interface Subscriber {
  listener: EventListener;
  onOpen?: () => void;
}

/**
 * The HTTP transport's `onEvent`: one EventSource on `url` (same origin, so the session cookie
 * goes with it) while anyone listens, closed when the last one leaves. EventSource reconnects by
 * itself when the connection drops; when it gives up (the service answered 401, 429 or was
 * unreachable) it is opened again here, later each time. Where there is no EventSource (tests
 * in Node), nobody is ever called: listeners fall back to asking now and then.
 */
export function openEventStream(url: string): (listener: EventListener, onOpen?: () => void) => () => void {
  const subscribers = new Set<Subscriber>();
  let source: EventSource | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let wait = RETRY_FIRST_MS;

  const connect = (): void => {
    if (typeof EventSource === 'undefined') return;
    const opened = new EventSource(url);
    source = opened;
    opened.onopen = () => {
      wait = RETRY_FIRST_MS;
      for (const subscriber of [...subscribers]) subscriber.onOpen?.();
    };
    opened.onmessage = (message: MessageEvent<string>) => {
      let event: ServiceEvent;
      try {
        event = JSON.parse(message.data) as ServiceEvent;
      } catch {
        return;
      }
      for (const subscriber of [...subscribers]) subscriber.listener(event);
    };
    opened.onerror = () => {
      // CONNECTING: the browser is already trying again on its own.
      if (opened.readyState !== EventSource.CLOSED) return;
      opened.close();
      if (source === opened) source = undefined;
      retry = setTimeout(() => {
        retry = undefined;
        if (subscribers.size > 0 && !source) connect();
      }, wait);
      wait = Math.min(wait * 2, RETRY_LAST_MS);
    };
  };

  return (listener, onOpen) => {
    const subscriber: Subscriber = { listener, onOpen };
    subscribers.add(subscriber);
    if (!source && retry === undefined) connect();
    return () => {
      subscribers.delete(subscriber);
      if (subscribers.size > 0) return;
      source?.close();
      source = undefined;
      if (retry !== undefined) clearTimeout(retry);
      retry = undefined;
      wait = RETRY_FIRST_MS;
    };
  };
}
