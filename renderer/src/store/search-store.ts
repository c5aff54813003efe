import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';
import type { DownloadedFile } from '../api/downloads';
import { ApiFault, asFault } from '../api/fault';
import type { ListAnswer, ListedInstance, SearchAnswer, SummaryAttr } from '../../../main/service/contract/resource-api';

const SEARCH = '/api/tool/Search/';
const EXPORT = '/api/export/export_data/?url=/api/tool/Search/';

/** Spec "Search rules": down by default; the flags search this node only, up, or both ways. */
export type SearchDirection = 'down' | 'local' | 'up' | 'all';

export interface SearchScope {
  /** Node pkid to search from; undefined: the caller's own node (rule 4). */
  node?: string;
  direction: SearchDirection;
}

export interface SearchGroup {
  modelType: string;
  hits: ListedInstance[];
}

export type ExportDataType = 'formatted' | 'raw' | 'json';

export type FieldsEntry = { state: 'loading' } | { state: 'ready'; attrs: SummaryAttr[] } | { state: 'error'; fault: ApiFault };

export interface SearchState {
  query: string;
  scope: SearchScope;
  state: 'idle' | 'loading' | 'ready' | 'empty' | 'error';
  groups: SearchGroup[];
  total: number;
  limit: number;
  fault?: ApiFault;
  /** The 1-based position in `sent.query` a malformed query's fault names. */
  faultPosition?: number;
  /** What the shown results (or fault) answer: the export exports this. */
  sent?: { query: string; scope: SearchScope };
  exportHref: string;
  /** The last query handed over by the top bar, so that coming back to the view does not run it again. */
  navQuery?: string;
  fields: Record<string, FieldsEntry>;
  exporting: boolean;
  exportFault?: ApiFault;
  setQuery(query: string): void;
  setScope(change: Partial<SearchScope>): void;
  search(): Promise<void>;
  /** Runs a query typed in the top bar's search box, once per hand-over. */
  searchFromNav(query: string): Promise<void>;
  /** Reads a model's summary attributes (for the query helper's field select). */
  loadFields(modelType: string, hierarchy: string): Promise<void>;
  exportResults(type: ExportDataType): Promise<DownloadedFile | undefined>;
}

const FLAGS: Record<SearchDirection, string | undefined> = {
  down: undefined,
  local: 'hierarchy_shallow',
  up: 'hierarchy_paths',
  all: 'hierarchy_all',
};

/** Query parameters of a search (or its export) besides the query itself. */
export function scopeParams(scope: SearchScope): Record<string, string> {
  const params: Record<string, string> = {};
  if (scope.node) params.hierarchy = scope.node;
  const flag = FLAGS[scope.direction];
  if (flag) params[flag] = 'true';
  return params;
}

/** Hits per model type, the models in the order the service answered them (by model type). */
export function groupByModel(resources: ListedInstance[]): SearchGroup[] {
  const groups = new Map<string, SearchGroup>();
  for (const hit of resources) {
    const modelType = hit.meta.model_type;
    let group = groups.get(modelType);
    if (!group) groups.set(modelType, (group = { modelType, hits: [] }));
    group.hits.push(hit);
  }
  return [...groups.values()];
}

/** The 1-based position a search fault names ("Search query error at position 12: ..."). */
export function positionOf(fault: ApiFault): number | undefined {
  const text = [fault.message, ...fault.details.map((detail) => detail.message)].join(' ');
  const match = /at position (\d+)/i.exec(text);
  return match ? Number(match[1]) : undefined;
}

export function createSearchStore(client: ApiClient) {
  let generation = 0;
  return createStore<SearchState>()((set, get) => ({
    query: '',
    scope: { direction: 'down' },
    state: 'idle',
    groups: [],
    total: 0,
    limit: 1000,
    exportHref: EXPORT,
    fields: {},
    exporting: false,
    setQuery: (query) => set({ query }),
    setScope: (change) => set({ scope: { ...get().scope, ...change } }),
    async search() {
      const { query, scope } = get();
      if (query.trim() === '') return;
      const mine = ++generation;
      set({ state: 'loading', fault: undefined, faultPosition: undefined, exportFault: undefined, sent: { query, scope } });
      try {
        const answer = await client.get<SearchAnswer>(SEARCH, { query, ...scopeParams(scope) });
        if (mine !== generation) return;
        const groups = groupByModel(answer.resources);
        set({
          state: groups.length === 0 ? 'empty' : 'ready',
          groups,
          total: answer.pagination.total,
          limit: answer.pagination.maximum_limit || answer.pagination.limit,
          exportHref: answer.meta?.actions?.export?.href ?? EXPORT,
        });
      } catch (error) {
        if (mine !== generation) return;
        const fault = withoutEcho(asFault(error));
        set({ state: 'error', groups: [], total: 0, fault, faultPosition: fault.status === 400 ? positionOf(fault) : undefined });
      }
    },
    async searchFromNav(query) {
      if (query === get().navQuery) return;
      set({ navQuery: query, query });
      await get().search();
    },
    async loadFields(modelType, hierarchy) {
      const known = get().fields[modelType];
      if (known && known.state !== 'error') return;
      const put = (entry: FieldsEntry) => set({ fields: { ...get().fields, [modelType]: entry } });
      put({ state: 'loading' });
      try {
        const answer = await client.get<ListAnswer>(`/api/${modelType}/`, { hierarchy, limit: 1, count: false });
        put({ state: 'ready', attrs: answer.meta.summary_attrs });
      } catch (error) {
        put({ state: 'error', fault: asFault(error) });
      }
    },
    async exportResults(type) {
      const sent = get().sent;
      if (!sent) return undefined;
      set({ exporting: true, exportFault: undefined });
      try {
        const body = JSON.stringify({ query: sent.query, export_data_type: type });
        const options = { query: scopeParams(sent.scope), headers: { 'content-type': 'application/json' }, body };
        return await client.file('POST', get().exportHref, options, `search-export.${type === 'json' ? 'json' : 'xlsx'}`);
      } catch (error) {
        set({ exportFault: asFault(error) });
        return undefined;
      } finally {
        set({ exporting: false });
      }
    },
  }));
}

/** A search fault repeats its message as the `query` field's detail; shown once is enough. */
function withoutEcho(fault: ApiFault): ApiFault {
  const details = fault.details.filter((detail) => detail.message !== fault.message);
  return details.length === fault.details.length
    ? fault
    : new ApiFault(fault.status, fault.code, fault.message, details, fault.transactionId);
}

export type SearchStore = ReturnType<typeof createSearchStore>;
