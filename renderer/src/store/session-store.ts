import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';
import { ApiFault, asFault } from '../api/fault';
import type { WhoAmI } from '../../../main/service/contract/resource-api';

export interface SessionState {
  state: 'checking' | 'signed-out' | 'signed-in';
  user?: WhoAmI;
  /** Why the last sign-in or check failed; shown on the sign-in page. */
  fault?: ApiFault;
  busy: boolean;
  /** Session transports sign in with a form; the local (IPC) one is signed in by the shell. */
  canSignOut: boolean;
  check(): Promise<void>;
  signIn(username: string, password: string): Promise<void>;
  signOut(): Promise<void>;
}

export function createSessionStore(client: ApiClient) {
  return createStore<SessionState>()((set, get) => ({
    state: 'checking',
    busy: false,
    canSignOut: client.transport.signIn === 'session',
    async check() {
      try {
        const user = await client.get<WhoAmI>('/api/whoami/');
        set({ state: 'signed-in', user, fault: undefined });
      } catch (error) {
        const fault = asFault(error);
        set({ state: 'signed-out', user: undefined, fault: fault.status === 401 ? undefined : fault });
      }
    },
    async signIn(username, password) {
      set({ busy: true, fault: undefined });
      try {
        await client.send('POST', '/noninteractivelogin/', { username, password });
        await get().check();
      } catch (error) {
        set({ state: 'signed-out', fault: asFault(error) });
      } finally {
        set({ busy: false });
      }
    },
    async signOut() {
      try {
        await client.send('POST', '/logout/');
      } finally {
        set({ state: 'signed-out', user: undefined, fault: undefined });
      }
    },
  }));
}

export type SessionStore = ReturnType<typeof createSessionStore>;
