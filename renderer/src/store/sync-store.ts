import { createStore } from 'zustand/vanilla';
import type { WorkbookAnswer } from '../../../main/service/contract/workbook-api';
import type { ConnectionTestResult, SyncPullAnswer, SyncPushAnswer, SyncStatus } from '../../../main/service/contract/workstation-api';
import type { ApiClient } from '../api/api-client';
import { asFault, type ApiFault } from '../api/fault';
import { pickAndUpload, uploadFile } from '../api/upload-file';
import type { WorkbookSummary } from './workbooks-store';

/**
 * The Sync panel of one remote profile (README: Offline mirrors, A day offline): its mirror
 * (`GET /workstation/sync/<profile>/`), a pull of it, workbooks staged for it (checked against
 * the mirror, offline) and their pushes. The workbooks themselves are the workbooks store's
 * list; this store tells it when a pull, a push or a new workbook changed them.
 */
export type PushOutcome =
  | { kind: 'running' }
  /** `checkedAgainst`: the pull the push refreshed the mirror with, which its plan was made against. */
  | { kind: 'done'; answer: SyncPushAnswer; checkedAgainst: string | null }
  | { kind: 'failed'; fault: ApiFault };

type StatusState = 'idle' | 'loading' | 'ready' | 'error';

export type Reach = 'unknown' | 'checking' | 'online' | 'offline';

/** Faults that mean the remote could not be reached at all (the network, its address, its certificate). */
const NETWORK_FAULTS = new Set(['remote-unreachable', 'remote-timeout', 'remote-tls']);

/** A file for a new workbook: its bytes (the page's picker, a drop), or the desktop shell's own dialog. */
export type StageSource = { name: string; bytes: Uint8Array } | 'shell-dialog';

export interface SyncState {
  /** The profile shown, by name (the workbooks' `profile` names it the same way). */
  profile?: string;
  status?: SyncStatus;
  statusState: StatusState;
  pulling: boolean;
  /** Reading the mirror's status or pulling it failed. */
  fault?: ApiFault;
  /**
   * The last pull would have removed more than a tenth of a model's instances from the mirror
   * (409 `mass-delete`, its details per model): the panel asks before pulling with the allowance.
   */
  massDelete?: ApiFault;
  /** The last push of each workbook shown, by workbook id. */
  pushes: Record<string, PushOutcome>;
  /**
   * Whether the profile's remote answers: tested when the panel opens and by "Check again", and
   * learnt from each pull and push (a fault of the network says offline, an answer online).
   * Offline, the panel says which of its actions need the network.
   */
  reach: Reach;
  /** What stands in the way when offline, in one sentence. */
  reachMessage?: string;
  /** What the profile's running pull or push is doing now, from the service's `sync` events. */
  progress?: { action: 'pull' | 'push'; text: string };
  /** What staging a new workbook is doing now, for the busy line. */
  staging?: string;
  stageFault?: ApiFault;
  /** Shows a profile: its mirror's status is read, what was shown of another profile is dropped. */
  open(profile: string): Promise<void>;
  /** `allowMassDelete`: the user confirmed what the pull removes from the mirror. */
  pull(options?: { allowMassDelete?: boolean }): Promise<void>;
  /** Answers "keep the mirror" to the mass-delete question. */
  keepMirror(): void;
  push(workbookId: string): Promise<void>;
  /** Tests whether the profile's remote answers (its connection test). */
  checkReach(): Promise<void>;
  /** Follows the service's sync events for the profile shown; the returned function stops. */
  follow(): () => void;
  /** Uploads a file and stages it for the profile at `remoteHierarchy` (empty: the mirror's home node). */
  stage(source: StageSource, uploadHierarchy: string, remoteHierarchy: string): Promise<WorkbookSummary | undefined>;
}

const WORKBOOKS = '/workstation/workbooks/';
const syncPath = (profile: string): string => `/workstation/sync/${encodeURIComponent(profile)}/`;

/** The profile's workbooks among all those listed: a Local workbook (`profile` null) is never pushed. */
export function workbooksFor<T extends Pick<WorkbookSummary, 'profile'>>(rows: T[], profile: string): T[] {
  return rows.filter((row) => row.profile === profile);
}

/** A pull's answer is the mirror's new status: no second request needed to show it. */
function statusAfterPull(profile: string, answer: SyncPullAnswer): SyncStatus {
  return { profile, pulled_at: answer.pulled_at, mode: answer.mode, home_hierarchy: answer.home_hierarchy, counts: answer.counts };
}

export function createSyncStore(client: ApiClient, onWorkbooksChanged: () => void) {
  return createStore<SyncState>()((set, get) => {
    /** Answers that arrive after the user moved to another profile are dropped, never shown as its. */
    const stillShowing = (profile: string): boolean => get().profile === profile;
    const readStatus = async (profile: string): Promise<SyncStatus | undefined> => {
      try {
        const status = await client.get<SyncStatus>(syncPath(profile));
        if (stillShowing(profile)) set({ status, statusState: 'ready' });
        return status;
      } catch (error) {
        if (stillShowing(profile)) set({ statusState: 'error', fault: asFault(error) });
        return undefined;
      }
    };
    /** What an answer or a fault from the remote says of its reach. */
    const learnt = (profile: string, error?: unknown): void => {
      if (!stillShowing(profile)) return;
      if (error === undefined) set({ reach: 'online', reachMessage: undefined });
      else {
        const fault = asFault(error);
        if (NETWORK_FAULTS.has(fault.code)) set({ reach: 'offline', reachMessage: fault.message });
      }
    };
    return {
      statusState: 'idle',
      reach: 'unknown',
      pulling: false,
      pushes: {},
      async checkReach() {
        const { profile } = get();
        if (!profile) return;
        set({ reach: 'checking' });
        try {
          const result = await client.send<ConnectionTestResult>(
            'POST',
            `/workstation/remote-profiles/${encodeURIComponent(profile)}/test/`,
          );
          if (!stillShowing(profile)) return;
          const cut = result.verdict === 'unreachable' || result.verdict === 'timeout' || result.verdict === 'tls';
          set(cut ? { reach: 'offline', reachMessage: result.message } : { reach: 'online', reachMessage: undefined });
        } catch (error) {
          // The test itself could not run (the profile gone, a refusal): nothing known of the network.
          if (stillShowing(profile)) set({ reach: 'unknown', reachMessage: asFault(error).message });
        }
      },
      follow() {
        const stop = client.transport.onEvent?.((event) => {
          if (event.type !== 'sync' || !stillShowing(event.profile)) return;
          set({ progress: event.ended ? undefined : { action: event.action, text: event.text } });
        });
        return () => stop?.();
      },
      async open(profile) {
        if (get().profile !== profile) {
          set({
            profile,
            status: undefined,
            pushes: {},
            fault: undefined,
            massDelete: undefined,
            stageFault: undefined,
            pulling: false,
            staging: undefined,
            progress: undefined,
            reach: 'unknown',
            reachMessage: undefined,
          });
        }
        set({ statusState: 'loading' });
        await readStatus(profile);
      },
      async pull(options = {}) {
        const { profile } = get();
        if (!profile || get().pulling) return;
        set({ pulling: true, fault: undefined, massDelete: undefined });
        try {
          const body = options.allowMassDelete ? { allow_mass_delete: true } : {};
          const answer = await client.send<SyncPullAnswer>('POST', `${syncPath(profile)}pull/`, body);
          if (stillShowing(profile)) set({ status: statusAfterPull(profile, answer), statusState: 'ready' });
          learnt(profile);
          // The profile's workbooks now say the new pull as the mirror they are checked against.
          onWorkbooksChanged();
        } catch (error) {
          // A failed pull leaves the last mirror as it was (README): its status stays shown beside the fault.
          const fault = asFault(error);
          if (stillShowing(profile)) set(fault.code === 'mass-delete' ? { massDelete: fault } : { fault });
          learnt(profile, error);
        } finally {
          if (stillShowing(profile)) set({ pulling: false });
        }
      },
      keepMirror() {
        set({ massDelete: undefined });
      },
      async push(workbookId) {
        const { profile } = get();
        if (!profile || get().pushes[workbookId]?.kind === 'running') return;
        const record = (outcome: PushOutcome): void => {
          if (stillShowing(profile)) set({ pushes: { ...get().pushes, [workbookId]: outcome } });
        };
        record({ kind: 'running' });
        try {
          const answer = await client.send<SyncPushAnswer>('POST', `${syncPath(profile)}push/`, { workbook: workbookId });
          // A push pulls the remote's changes first: the status read now names the pull its plan was checked against.
          const status = await readStatus(profile);
          record({ kind: 'done', answer, checkedAgainst: status?.pulled_at ?? null });
          learnt(profile);
        } catch (error) {
          record({ kind: 'failed', fault: asFault(error) });
          learnt(profile, error);
        }
        // Pushed or not, the rows' outcomes and the workbook's state may have moved.
        onWorkbooksChanged();
      },
      async stage(source, uploadHierarchy, remoteHierarchy) {
        const { profile } = get();
        if (!profile) return undefined;
        set({ staging: source === 'shell-dialog' ? 'Opening a file...' : `Opening ${source.name}...`, stageFault: undefined });
        try {
          // The file is uploaded to the local service (never the remote): the workbook is staged and checked here.
          const file =
            source === 'shell-dialog'
              ? await pickAndUpload(client, uploadHierarchy)
              : await uploadFile(client, source.name, source.bytes, uploadHierarchy);
          if (file === undefined) return undefined;
          const remote = remoteHierarchy.trim();
          const answer = await client.send<WorkbookAnswer>('POST', WORKBOOKS, {
            from: 'upload',
            file,
            profile,
            ...(remote === '' ? {} : { hierarchy: remote }),
          });
          onWorkbooksChanged();
          return answer.workbook;
        } catch (error) {
          if (stillShowing(profile)) set({ stageFault: asFault(error) });
          return undefined;
        } finally {
          if (stillShowing(profile)) set({ staging: undefined });
        }
      },
    };
  });
}

export type SyncStore = ReturnType<typeof createSyncStore>;
