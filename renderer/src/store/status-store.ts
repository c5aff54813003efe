import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';
import { asFault } from '../api/fault';
import { FINISHED } from '../api/types';

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

/**
 * The status line's state: whether the service answers, and the transactions this window
 * started that are still running. Polling is the transaction's own `poll/` call.
 */
export function createStatusStore(client: ApiClient, pollMs = 400) {
  const store = createStore<StatusState>()((set, get) => ({
    connection: 'unknown',
    running: {},
    async track(id, label) {
      set({ running: { ...get().running, [id]: { id, label, status: 'Queued' } } });
      let status = 'Queued';
      for (;;) {
        try {
          const poll = await client.get<Poll>(`/api/tool/Transaction/${id}/poll/`);
          status = poll[id]?.status ?? status;
        } catch (error) {
          if (asFault(error).status !== 0) status = 'Fail';
        }
        if (FINISHED.has(status)) break;
        set({ running: { ...get().running, [id]: { id, label, status } } });
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
      const running = { ...get().running };
      delete running[id];
      set({ running, lastFinished: { id, label, status } });
      return status;
    },
  }));
  client.onConnection((reachable) => {
    const connection = reachable ? 'connected' : 'unreachable';
    if (store.getState().connection !== connection) store.setState({ connection });
  });
  return store;
}

export type StatusStore = ReturnType<typeof createStatusStore>;
