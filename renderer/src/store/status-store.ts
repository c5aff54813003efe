import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';
import { asFault } from '../api/fault';
import { FINISHED } from '../api/finished';

export interface TrackedTransaction {
  id: string;
  /** What the user did, e.g. "Add relation/LineRelation". */
  label: string;
  status: string;
}

export interface StatusState {
  connection: 'unknown' | 'connected' | 'unreachable';
  running: Record<string, TrackedTransaction>;
  /** The most recently finished tracked transaction, for views that refresh after it. */
  lastFinished?: TrackedTransaction;
  /** Follows a transaction until it finishes; resolves with its final status. */
  track(id: string, label: string): Promise<string>;
}

type Poll = Record<string, { status: string; href: string; description?: string }>;

export interface StatusTiming {
  /** How often the running transactions are asked for anyway, in case the event stream dropped some. */
  fallbackMs?: number;
  /** How long the event stream stays open after the last transaction finished (the next one often follows). */
  lingerMs?: number;
}

/**
 * The status line's state: whether the service answers, and the transactions this window
 * started that are still running. They follow the service's transaction events; the
 * transaction's own `poll/` call is asked once at the start (it may have finished already),
 * whenever the event stream (re)connects, and every `fallbackMs` while any runs.
 */
export function createStatusStore(client: ApiClient, timing: StatusTiming = {}) {
  const fallbackMs = timing.fallbackMs ?? 10_000;
  const lingerMs = timing.lingerMs ?? 30_000;
  const followed = new Map<string, { label: string; settle: (status: string) => void }>();
  let fallback: ReturnType<typeof setInterval> | undefined;
  let unsubscribe: (() => void) | undefined;
  let linger: ReturnType<typeof setTimeout> | undefined;

  const store = createStore<StatusState>()((set, get) => ({
    connection: 'unknown',
    running: {},
    track(id, label) {
      set({ running: { ...get().running, [id]: { id, label, status: 'Queued' } } });
      const done = new Promise<string>((settle) => followed.set(id, { label, settle }));
      follow();
      void ask(id);
      return done;
    },
  }));

  /** A status learned from an event or a poll. */
  function update(id: string, status: string): void {
    const follower = followed.get(id);
    if (!follower) return;
    const running = { ...store.getState().running };
    if (!FINISHED.has(status)) {
      if (running[id]?.status !== status) store.setState({ running: { ...running, [id]: { id, label: follower.label, status } } });
      return;
    }
    followed.delete(id);
    delete running[id];
    store.setState({ running, lastFinished: { id, label: follower.label, status } });
    follower.settle(status);
    if (followed.size === 0) unfollow();
  }

  async function ask(id: string): Promise<void> {
    try {
      const poll = await client.get<Poll>(`/api/tool/Transaction/${id}/poll/`);
      const status = poll[id]?.status;
      if (status !== undefined) update(id, status);
    } catch (error) {
      // Unreachable (status 0): asked again later. Any other refusal ends the following.
      if (asFault(error).status !== 0) update(id, 'Fail');
    }
  }

  const askAll = (): void => {
    for (const id of [...followed.keys()]) void ask(id);
  };

  function follow(): void {
    if (linger !== undefined) clearTimeout(linger);
    linger = undefined;
    unsubscribe ??= client.transport.onEvent?.((event) => {
      if (event.type === 'transaction') update(event.transaction_id, event.status);
    }, askAll);
    fallback ??= setInterval(askAll, fallbackMs);
  }

  function unfollow(): void {
    if (fallback !== undefined) clearInterval(fallback);
    fallback = undefined;
    if (linger !== undefined) clearTimeout(linger);
    linger = setTimeout(() => {
      linger = undefined;
      if (followed.size > 0) return;
      unsubscribe?.();
      unsubscribe = undefined;
    }, lingerMs);
  }

  client.onConnection((reachable) => {
    const connection = reachable ? 'connected' : 'unreachable';
    if (store.getState().connection !== connection) store.setState({ connection });
  });
  return store;
}

export type StatusStore = ReturnType<typeof createStatusStore>;
