import { createStore } from 'zustand/vanilla';
import type { WorkbookAnswer } from '../../../main/service/contract/workbook-api';
import type { SyncPullAnswer, SyncPushAnswer, SyncStatus } from '../../../main/service/contract/workstation-api';
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
  /** The last push of each workbook shown, by workbook id. */
  pushes: Record<string, PushOutcome>;
  /** What the profile's running pull or push is doing now, from the service's `sync` events. */
  progress?: { action: 'pull' | 'push'; text: string };
  /** What staging a new workbook is doing now, for the busy line. */
  staging?: string;
  stageFault?: ApiFault;
  /** Shows a profile: its mirror's status is read, what was shown of another profile is dropped. */
  open(profile: string): Promise<void>;
  pull(): Promise<void>;
  push(workbookId: string): Promise<void>;
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
    return {
      statusState: 'idle',
      pulling: false,
      pushes: {},
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
            stageFault: undefined,
            pulling: false,
            staging: undefined,
            progress: undefined,
          });
        }
        set({ statusState: 'loading' });
        await readStatus(profile);
      },
      async pull() {
        const { profile } = get();
        if (!profile || get().pulling) return;
        set({ pulling: true, fault: undefined });
        try {
          const answer = await client.send<SyncPullAnswer>('POST', `${syncPath(profile)}pull/`, {});
          if (stillShowing(profile)) set({ status: statusAfterPull(profile, answer), statusState: 'ready' });
          // The profile's workbooks now say the new pull as the mirror they are checked against.
          onWorkbooksChanged();
        } catch (error) {
          // A failed pull leaves the last mirror as it was (README): its status stays shown beside the fault.
          if (stillShowing(profile)) set({ fault: asFault(error) });
        } finally {
          if (stillShowing(profile)) set({ pulling: false });
        }
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
        } catch (error) {
          record({ kind: 'failed', fault: asFault(error) });
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
