import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';
import { asFault, type ApiFault } from '../api/fault';
import type {
  ConnectionTestResult,
  CredentialVaultInfo,
  RemoteProfile,
  RemoteProfileAnswer,
  RemoteProfileInput,
  RemoteProfileList,
} from '../../../main/service/contract/workstation-api';

export interface ProfilesState {
  profiles: RemoteProfile[];
  vault?: CredentialVaultInfo;
  loading: boolean;
  busy: boolean;
  fault?: ApiFault;
  /** The last Test connection of each profile, by id. */
  tests: Record<string, ConnectionTestResult | 'running'>;
  load(): Promise<void>;
  add(input: RemoteProfileInput): Promise<boolean>;
  remove(id: string): Promise<void>;
  /** Changes any fields of a profile (PUT); resolves true when the service took them. */
  update(id: string, input: RemoteProfileInput): Promise<boolean>;
  /** Enters a profile's password again (server mode forgets them at a restart). */
  setPassword(id: string, password: string): Promise<boolean>;
  test(id: string): Promise<void>;
}

/** Settings: the remote profiles the user may use, made, tested and removed through /workstation/remote-profiles/. */
export function createProfilesStore(client: ApiClient, onChange: () => void) {
  return createStore<ProfilesState>()((set, get) => ({
    profiles: [],
    loading: false,
    busy: false,
    tests: {},
    async load() {
      set({ loading: true });
      try {
        const { profiles, vault } = await client.get<RemoteProfileList>('/workstation/remote-profiles/');
        set({ profiles, vault, fault: undefined });
      } catch (error) {
        set({ fault: asFault(error) });
      } finally {
        set({ loading: false });
      }
    },
    async add(input) {
      set({ busy: true, fault: undefined });
      try {
        const { profile } = await client.send<RemoteProfileAnswer>('POST', '/workstation/remote-profiles/', input);
        set({ profiles: [...get().profiles, profile].sort((a, b) => a.name.localeCompare(b.name)) });
        onChange();
        return true;
      } catch (error) {
        set({ fault: asFault(error) });
        return false;
      } finally {
        set({ busy: false });
      }
    },
    async remove(id) {
      set({ busy: true, fault: undefined });
      try {
        await client.send('DELETE', `/workstation/remote-profiles/${id}/`);
        set({ profiles: get().profiles.filter((profile) => profile.id !== id) });
        onChange();
      } catch (error) {
        set({ fault: asFault(error) });
      } finally {
        set({ busy: false });
      }
    },
    async update(id, input) {
      set({ busy: true, fault: undefined });
      try {
        const { profile } = await client.send<RemoteProfileAnswer>('PUT', `/workstation/remote-profiles/${id}/`, input);
        set({ profiles: get().profiles.map((known) => (known.id === id ? profile : known)).sort((a, b) => a.name.localeCompare(b.name)) });
        // A new name or address shows in the switcher, and a live workspace follows it.
        onChange();
        return true;
      } catch (error) {
        set({ fault: asFault(error) });
        return false;
      } finally {
        set({ busy: false });
      }
    },
    async setPassword(id, password) {
      set({ busy: true, fault: undefined });
      try {
        const { profile } = await client.send<RemoteProfileAnswer>('PUT', `/workstation/remote-profiles/${id}/`, { password });
        set({ profiles: get().profiles.map((known) => (known.id === id ? profile : known)) });
        return true;
      } catch (error) {
        set({ fault: asFault(error) });
        return false;
      } finally {
        set({ busy: false });
      }
    },
    async test(id) {
      set({ tests: { ...get().tests, [id]: 'running' } });
      try {
        const result = await client.send<ConnectionTestResult>('POST', `/workstation/remote-profiles/${id}/test/`);
        set({ tests: { ...get().tests, [id]: result } });
        await get().load();
      } catch (error) {
        const rest = { ...get().tests };
        delete rest[id];
        set({ tests: rest, fault: asFault(error) });
      }
    },
  }));
}

export type ProfilesStore = ReturnType<typeof createProfilesStore>;
