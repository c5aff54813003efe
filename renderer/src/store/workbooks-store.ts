import { createStore } from 'zustand/vanilla';
import type { WorkbookAnswer, WorkbookInfo, WorkbookList } from '../../../main/service/contract/workbook-api';
import type { ApiClient } from '../api/api-client';
import { asFault, type ApiFault } from '../api/fault';
import { pickAndUpload, uploadFile } from '../api/upload-file';

/**
 * The staged workbooks the user may open (`/workstation/workbooks/`): the list, kept fresh by
 * the service's `workbook` events, and what starts a new one: a file the user picked or dropped
 * (uploaded, then staged), or a bulk-load template for a model at a node.
 */
export type WorkbookSummary = Omit<WorkbookInfo, 'sheets'>;

type ListState = 'idle' | 'loading' | 'ready' | 'error';

export interface WorkbooksState {
  rows: WorkbookSummary[];
  listState: ListState;
  fault?: ApiFault;
  /** What is being done now (`Opening lines.xlsx...`), for the busy line; undefined when idle. */
  busy?: string;
  load(): Promise<void>;
  /** Uploads the file's bytes for `hierarchy` and stages it; answers the new workbook. */
  openFile(name: string, bytes: Uint8Array, hierarchy: string): Promise<WorkbookSummary | undefined>;
  /** The same through the desktop shell's open dialog (where the transport has one); undefined when cancelled. */
  pickFile(hierarchy: string): Promise<WorkbookSummary | undefined>;
  fromTemplate(modelType: string, hierarchy: string): Promise<WorkbookSummary | undefined>;
  remove(id: string): Promise<void>;
  /** A copy of the workbook's sheets and rows, the caller's, validated anew; answers it. */
  duplicate(id: string): Promise<WorkbookSummary | undefined>;
  /** Follows the service's workbook events while the list is shown; answers the function that stops. */
  follow(): () => void;
}

const WORKBOOKS = '/workstation/workbooks/';

export function createWorkbooksStore(client: ApiClient) {
  const store = createStore<WorkbooksState>()((set, get) => {
    /** Runs one action that starts or changes a workbook, with its busy line and its fault. */
    const act = async <T>(busy: string, work: () => Promise<T>): Promise<T | undefined> => {
      set({ busy, fault: undefined });
      try {
        const result = await work();
        await get().load();
        return result;
      } catch (error) {
        set({ fault: asFault(error) });
        return undefined;
      } finally {
        set({ busy: undefined });
      }
    };
    return {
      rows: [],
      listState: 'idle',
      async load() {
        if (get().listState === 'idle') set({ listState: 'loading' });
        try {
          const list = await client.get<WorkbookList>(WORKBOOKS);
          set({ rows: list.workbooks, listState: 'ready' });
        } catch (error) {
          set({ listState: 'error', fault: asFault(error) });
        }
      },
      openFile(name, bytes, hierarchy) {
        return act(`Opening ${name}...`, async () => {
          await uploadFile(client, name, bytes, hierarchy);
          const answer = await client.send<WorkbookAnswer>('POST', WORKBOOKS, { from: 'upload', file: name, hierarchy });
          return answer.workbook;
        });
      },
      pickFile(hierarchy) {
        return act('Opening a file...', async () => {
          const name = await pickAndUpload(client, hierarchy);
          if (name === undefined) return undefined;
          const answer = await client.send<WorkbookAnswer>('POST', WORKBOOKS, { from: 'upload', file: name, hierarchy });
          return answer.workbook;
        });
      },
      fromTemplate(modelType, hierarchy) {
        return act(`Making a ${modelType} template...`, async () => {
          const answer = await client.send<WorkbookAnswer>('POST', WORKBOOKS, { from: 'template', model_type: modelType, hierarchy });
          return answer.workbook;
        });
      },
      async remove(id) {
        await act('Deleting...', () => client.send('DELETE', `${WORKBOOKS}${encodeURIComponent(id)}/`));
      },
      async duplicate(id) {
        return act('Duplicating...', async () => {
          const answer = await client.send<WorkbookAnswer>('POST', `${WORKBOOKS}${encodeURIComponent(id)}/duplicate/`, {});
          return answer.workbook;
        });
      },
      follow() {
        const transport = client.transport;
        if (!transport.onEvent) return () => undefined;
        return transport.onEvent(
          (event) => {
            if (event.type === 'workbook') void get().load();
          },
          () => void get().load(),
        );
      },
    };
  });
  return store;
}

export type WorkbooksStore = ReturnType<typeof createWorkbooksStore>;
