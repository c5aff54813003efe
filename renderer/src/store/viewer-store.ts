import { createStore } from 'zustand/vanilla';
import type {
  ViewerAnswer,
  ViewerFindAnswer,
  ViewerInfo,
  ViewerMatch,
  ViewerOpenRequest,
  ViewerRow,
  ViewerRowPage,
} from '../../../main/service/contract/viewer-api';
import type { ApiClient } from '../api/api-client';
import { asFault, type ApiFault } from '../api/fault';
import { pickAndUpload, uploadFile } from '../api/upload-file';
import { stageWorkbook } from './stage-workbook';

/**
 * The export viewer (README: Viewing exports): an export or an .xlsx file the service read once,
 * shown read-only a page of rows at a time, with a find that steps through its matches across
 * sheets, and "Edit as workbook", which stages the same source as a workbook to edit and load.
 */
export const VIEWER_PAGE_ROWS = 200;
const VIEWER = '/workstation/viewer/';

export interface FindState {
  text: string;
  /** Every match in the file (the service lists the first thousand). */
  total: number;
  matches: ViewerMatch[];
  /** The match the grid is on, or -1 before the first step. */
  at: number;
}

export interface ViewerState {
  id?: string;
  info?: ViewerInfo;
  sheet: number;
  /** Pages of the shown sheet by page number (rows `page * VIEWER_PAGE_ROWS` on). */
  pages: Map<number, ViewerRow[]>;
  /** Bumped when pages arrive or the find moves, so the grid repaints. */
  version: number;
  /** What is being done now (`Reading the export...`); undefined when idle. */
  busy?: string;
  fault?: ApiFault;
  find?: FindState;
  /** Reads an export (or the user's upload) into a new viewer; answers its id. */
  open(request: ViewerOpenRequest): Promise<string | undefined>;
  /** Uploads a file the user picked at `hierarchy`, then opens it read-only. */
  openFile(name: string, bytes: Uint8Array, hierarchy: string): Promise<string | undefined>;
  /**
   * The same through the desktop shell's open dialog (where the transport has one): `picked`
   * runs once the chosen file is uploaded, never when the user cancelled; answers the viewer's id.
   */
  pickFile(hierarchy: string, picked: () => void): Promise<string | undefined>;
  /** Shows a viewer opened earlier (the navigation came back to it). */
  show(id: string): Promise<void>;
  showSheet(sheet: number): void;
  /** The row at an index of the shown sheet, reading its page when it is not there yet. */
  rowAt(index: number): ViewerRow | undefined;
  search(text: string): Promise<void>;
  /** Moves to the next (1) or previous (-1) match, showing its sheet; answers it. */
  step(direction: 1 | -1): ViewerMatch | undefined;
  /** Stages the viewer's source as a workbook; answers the workbook's id. */
  editAsWorkbook(): Promise<string | undefined>;
}

const base = (id: string): string => `${VIEWER}${encodeURIComponent(id)}/`;

export function createViewerStore(client: ApiClient) {
  const loading = new Set<number>();
  return createStore<ViewerState>()((set, get) => {
    const readPage = async (page: number): Promise<void> => {
      const { id, sheet } = get();
      if (!id || loading.has(page)) return;
      loading.add(page);
      try {
        const answer = await client.get<ViewerRowPage>(`${base(id)}sheets/${sheet}/rows/`, {
          skip: page * VIEWER_PAGE_ROWS,
          limit: VIEWER_PAGE_ROWS,
        });
        if (get().id !== id || get().sheet !== sheet) return;
        const pages = new Map(get().pages);
        pages.set(page, answer.rows);
        set({ pages, version: get().version + 1 });
      } catch (error) {
        set({ fault: asFault(error) });
      } finally {
        loading.delete(page);
      }
    };
    const showInfo = async (info: ViewerInfo): Promise<void> => {
      loading.clear();
      const first = info.sheets.find((sheet) => !sheet.skipped) ?? info.sheets[0];
      set({ id: info.id, info, sheet: first?.index ?? 0, pages: new Map(), find: undefined, version: get().version + 1 });
      await readPage(0);
    };
    /** Runs one step with its busy line; a refusal is kept as the fault the view shows. */
    const act = async <T>(busy: string, work: () => Promise<T>): Promise<T | undefined> => {
      set({ busy, fault: undefined });
      try {
        return await work();
      } catch (error) {
        set({ fault: asFault(error) });
        return undefined;
      } finally {
        set({ busy: undefined });
      }
    };
    const openWith = async (request: ViewerOpenRequest): Promise<string> => {
      // A viewer is the local service's, whatever workspace is live: straight to /workstation/.
      const answer = await client.send<ViewerAnswer>('POST', VIEWER, request);
      await showInfo(answer.viewer);
      return answer.viewer.id;
    };
    return {
      sheet: 0,
      pages: new Map(),
      version: 0,
      open(request) {
        set({ id: undefined, info: undefined });
        return act(request.from === 'search' ? 'Reading the search results...' : 'Reading the export...', () => openWith(request));
      },
      openFile(name, bytes, hierarchy) {
        set({ id: undefined, info: undefined });
        return act(`Reading ${name}...`, async () => {
          await uploadFile(client, name, bytes, hierarchy);
          return openWith({ from: 'upload', file: name, hierarchy });
        });
      },
      pickFile(hierarchy, picked) {
        return act('Choosing a file...', async () => {
          const name = await pickAndUpload(client, hierarchy);
          if (name === undefined) return undefined;
          set({ id: undefined, info: undefined });
          picked();
          return openWith({ from: 'upload', file: name, hierarchy });
        });
      },
      async show(id) {
        if (get().id === id && get().info) return;
        await act('Reading the viewer...', async () => showInfo((await client.get<ViewerAnswer>(base(id))).viewer));
      },
      showSheet(sheet) {
        loading.clear();
        set({ sheet, pages: new Map(), version: get().version + 1 });
        void readPage(0);
      },
      rowAt(index) {
        const page = Math.floor(index / VIEWER_PAGE_ROWS);
        const rows = get().pages.get(page);
        if (!rows) {
          void readPage(page);
          return undefined;
        }
        return rows[index - page * VIEWER_PAGE_ROWS];
      },
      async search(text) {
        const { id } = get();
        if (!id) return;
        if (text.trim() === '') {
          set({ find: undefined, version: get().version + 1 });
          return;
        }
        await act('Finding...', async () => {
          const answer = await client.get<ViewerFindAnswer>(`${base(id)}find/`, { text });
          set({ find: { text, total: answer.total, matches: answer.matches, at: -1 }, version: get().version + 1 });
          get().step(1);
        });
      },
      step(direction) {
        const find = get().find;
        if (!find || find.matches.length === 0) return undefined;
        const at = (find.at + direction + find.matches.length) % find.matches.length;
        const match = find.matches[at];
        set({ find: { ...find, at }, version: get().version + 1 });
        if (match.sheet !== get().sheet) get().showSheet(match.sheet);
        else get().rowAt(match.index);
        return match;
      },
      editAsWorkbook() {
        const info = get().info;
        if (!info) return Promise.resolve(undefined);
        return act('Making a workbook of it...', () => stageWorkbook(client, { ...info.source, name: info.name }));
      },
    };
  });
}

export type ViewerStore = ReturnType<typeof createViewerStore>;
