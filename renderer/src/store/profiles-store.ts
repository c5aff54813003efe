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
  return createStore<ProfilesState>()((set, get) => {
    /** One change at a time: busy while it runs, its fault kept; true when the service took it. */
    const change = async (run: () => Promise<void>): Promise<boolean> => {
      set({ busy: true, fault: undefined });
      try {
        await run();
        return true;
      } catch (error) {
        set({ fault: asFault(error) });
        return false;
      } finally {
        set({ busy: false });
      }
    };
    const byName = (profiles: RemoteProfile[]): RemoteProfile[] => profiles.sort((a, b) => a.name.localeCompare(b.name));
    const replaced = (profile: RemoteProfile): RemoteProfile[] =>
      get().profiles.map((known) => (known.id === profile.id ? profile : known));
    return {
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
      add: (input) =>
        change(async () => {
          const { profile } = await client.send<RemoteProfileAnswer>('POST', '/workstation/remote-profiles/', input);
          set({ profiles: byName([...get().profiles, profile]) });
          onChange();
        }),
      async remove(id) {
        await change(async () => {
          await client.send('DELETE', `/workstation/remote-profiles/${id}/`);
          set({ profiles: get().profiles.filter((profile) => profile.id !== id) });
          onChange();
        });
      },
      update: (id, input) =>
        change(async () => {
          const { profile } = await client.send<RemoteProfileAnswer>('PUT', `/workstation/remote-profiles/${id}/`, input);
          set({ profiles: byName(replaced(profile)) });
          // A new name or address shows in the switcher, and a live workspace follows it.
          onChange();
        }),
      setPassword: (id, password) =>
        change(async () => {
          const { profile } = await client.send<RemoteProfileAnswer>('PUT', `/workstation/remote-profiles/${id}/`, { password });
          set({ profiles: replaced(profile) });
        }),
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
    };
  });
}

export type ProfilesStore = ReturnType<typeof createProfilesStore>;
