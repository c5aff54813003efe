import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';
import { asFault, type ApiFault } from '../api/fault';
import type { AsyncAnswer, ListAnswer, SchemaProperty } from '../../../main/service/contract/resource-api';

export type Traversal = 'down' | 'local' | 'up';
export type FilterCondition = 'contains' | 'startswith' | 'endswith' | 'equals';
export const FILTER_CONDITIONS: FilterCondition[] = ['contains', 'startswith', 'endswith', 'equals'];
export const PAGE_SIZES = [50, 100, 250] as const;

/** Checked rows by href; the anchor is the last row clicked, where a shift-click range starts. */
export interface Selection {
  hrefs: ReadonlySet<string>;
  anchor?: number;
}

export function emptySelection(): Selection {
  return { hrefs: new Set() };
}

/** A click toggles one row; a shift-click sets every row from the anchor to it as the clicked row now is. */
export function rangeSelect(selection: Selection, hrefs: string[], index: number, range: boolean): Selection {
  const href = hrefs[index];
  if (href === undefined) return selection;
  const next = new Set(selection.hrefs);
  const checked = !next.has(href);
  const from = range && selection.anchor !== undefined ? Math.min(selection.anchor, index) : index;
  const to = range && selection.anchor !== undefined ? Math.max(selection.anchor, index) : index;
  for (let i = from; i <= to; i += 1) {
    const each = hrefs[i];
    if (each === undefined) continue;
    if (checked) next.add(each);
    else next.delete(each);
  }
  return { hrefs: next, anchor: index };
}

export interface FilterRow {
  field: string;
  condition: FilterCondition;
  text: string;
}

/** What the list shows: the service's query, kept so the view can rebuild it after a change. */
export interface ListQuery {
  modelType: string;
  hierarchy: string;
  traversal: Traversal;
  skip: number;
  limit: number;
  orderBy?: string;
  direction: 'asc' | 'desc';
  filters: FilterRow[];
}

export interface TagOutcome {
  tagged: number;
  warnings: string[];
  faults: ApiFault[];
}

export interface ResourcesState {
  query?: ListQuery;
  listState: 'idle' | 'loading' | 'ready' | 'empty' | 'error';
  answer?: ListAnswer;
  fault?: ApiFault;
  /** Field titles of the `add/` form (the default Field Display Policy applied), per model type. */
  formTitles: Record<string, Record<string, string>>;
  selection: Selection;
  /** A failed delete or tag, shown above the table without hiding the list. */
  actionFault?: ApiFault;
  busy: boolean;
  /** Opens a model at a node: a new place starts on page one, unfiltered, unsorted. */
  show(modelType: string, hierarchy: string): Promise<void>;
  reload(): Promise<void>;
  setTraversal(traversal: Traversal): Promise<void>;
  setPageSize(limit: number): Promise<void>;
  goToPage(page: number): Promise<void>;
  sortBy(field: string): Promise<void>;
  setFilters(filters: FilterRow[]): Promise<void>;
  toggle(index: number, range: boolean): void;
  selectPage(all: boolean): void;
  /** Deletes the selected instances in one transaction; resolves with its id. */
  /** `approvedFor`: the live deployment the list's own dialog named when the user confirmed. */
  deleteSelected(track: (id: string, label: string) => Promise<string>, approvedFor?: string): Promise<void>;
  tagSelected(tag: string): Promise<TagOutcome>;
}

export function listPath(modelType: string): string {
  return `/api/${modelType}/`;
}

/** The list call's query string; filter sets repeat their keys in order (spec, filter rule 2). */
export function listParams(query: ListQuery): URLSearchParams {
  const params = new URLSearchParams({
    hierarchy: query.hierarchy,
    traversal: query.traversal,
    skip: String(query.skip),
    limit: String(query.limit),
  });
  if (query.orderBy) {
    params.set('order_by', query.orderBy);
    params.set('direction', query.direction);
  }
  for (const filter of query.filters) {
    if (filter.field === '' || filter.text.trim() === '') continue;
    params.append('filter_field', filter.field);
    params.append('filter_condition', filter.condition);
    params.append('filter_text', filter.text.trim());
  }
  return params;
}

/** Page numbers are 1-based; an empty list still has one page. */
export function pageInfo(pagination: { skip: number; limit: number; total: number }): { page: number; pages: number } {
  const limit = Math.max(1, pagination.limit);
  return { page: Math.floor(pagination.skip / limit) + 1, pages: Math.max(1, Math.ceil(pagination.total / limit)) };
}

/** Titles of the top-level and nested properties of a form schema, keyed by dot path. */
export function titlesOf(properties: Record<string, SchemaProperty> | undefined, prefix = ''): Record<string, string> {
  const titles: Record<string, string> = {};
  for (const [name, property] of Object.entries(properties ?? {})) {
    if (property.title) titles[`${prefix}${name}`] = property.title;
    if (property.properties) Object.assign(titles, titlesOf(property.properties, `${prefix}${name}.`));
  }
  return titles;
}

export function createResourcesStore(client: ApiClient) {
  let ticket = 0;
  return createStore<ResourcesState>()((set, get) => {
    /** Loads the list for a query; an answer to an older query than the latest is dropped. */
    const load = async (query: ListQuery): Promise<void> => {
      const mine = ++ticket;
      set({ query, listState: 'loading', fault: undefined });
      try {
        const answer = await client.get<ListAnswer>(listPath(query.modelType), listParams(query));
        if (mine !== ticket) return;
        set({ answer, listState: answer.resources.length === 0 ? 'empty' : 'ready', selection: keepSelection(get().selection, answer) });
      } catch (error) {
        if (mine !== ticket) return;
        set({ listState: 'error', fault: asFault(error), answer: undefined, selection: emptySelection() });
      }
    };

    const change = (patch: Partial<ListQuery>): Promise<void> => {
      const query = get().query;
      return query ? load({ ...query, ...patch }) : Promise.resolve();
    };

    /** Field titles from `add/`, once per model; without them the list's own titles stand. */
    const loadTitles = async (modelType: string, hierarchy: string): Promise<void> => {
      if (get().formTitles[modelType]) return;
      set({ formTitles: { ...get().formTitles, [modelType]: {} } });
      try {
        const form = await client.get<{ schema?: { properties?: Record<string, SchemaProperty> } }>(`${listPath(modelType)}add/`, {
          hierarchy,
        });
        set({ formTitles: { ...get().formTitles, [modelType]: titlesOf(form.schema?.properties) } });
      } catch {
        // The list's summary titles are a fine fallback; a form the user may not open is no fault here.
      }
    };

    return {
      listState: 'idle',
      formTitles: {},
      selection: emptySelection(),
      busy: false,
      async show(modelType, hierarchy) {
        const current = get().query;
        const same = current && current.modelType === modelType && current.hierarchy === hierarchy;
        if (!same) set({ selection: emptySelection(), actionFault: undefined, answer: undefined });
        void loadTitles(modelType, hierarchy);
        const base: ListQuery = same
          ? current
          : {
              modelType,
              hierarchy,
              traversal: current?.traversal ?? 'down',
              skip: 0,
              limit: current?.limit ?? 50,
              direction: 'asc',
              filters: [],
            };
        await load(base);
      },
      async reload() {
        const query = get().query;
        if (query) await load(query);
      },
      setTraversal: (traversal) => change({ traversal, skip: 0 }),
      setPageSize: (limit) => change({ limit, skip: 0 }),
      async goToPage(page) {
        const { query, answer } = get();
        if (!query) return;
        const pages = answer ? pageInfo({ ...answer.pagination, limit: query.limit }).pages : 1;
        const target = Math.min(Math.max(1, Math.floor(page)), pages);
        await change({ skip: (target - 1) * query.limit });
      },
      async sortBy(field) {
        const query = get().query;
        if (!query) return;
        // The service sorts by the first summary attribute when none is named: that is the current order.
        const current = query.orderBy ?? get().answer?.pagination.order_by;
        const direction = current === field && query.direction === 'asc' ? 'desc' : 'asc';
        await change({ orderBy: field, direction, skip: 0 });
      },
      setFilters: (filters) => change({ filters, skip: 0 }),
      toggle(index, range) {
        const hrefs = (get().answer?.resources ?? []).map((r) => r.meta.href);
        set({ selection: rangeSelect(get().selection, hrefs, index, range) });
      },
      selectPage(all) {
        const hrefs = all ? (get().answer?.resources ?? []).map((r) => r.meta.href) : [];
        set({ selection: { hrefs: new Set(hrefs), anchor: undefined } });
      },
      async deleteSelected(track, approvedFor) {
        const { query, answer, selection } = get();
        if (!query || selection.hrefs.size === 0) return;
        set({ busy: true, actionFault: undefined });
        try {
          const nowait = answer?.meta.actions.delete?.support_async ? true : undefined;
          const reply = await client.send<AsyncAnswer>(
            'DELETE',
            listPath(query.modelType),
            { hrefs: [...selection.hrefs] },
            { hierarchy: query.hierarchy, nowait },
            approvedFor,
          );
          set({ selection: emptySelection() });
          await track(reply.transaction_id, `Delete ${selection.hrefs.size} × ${query.modelType}`);
          await get().reload();
        } catch (error) {
          set({ actionFault: asFault(error) });
        } finally {
          set({ busy: false });
        }
      },
      async tagSelected(tag) {
        const hrefs = [...get().selection.hrefs];
        const outcome: TagOutcome = { tagged: 0, warnings: [], faults: [] };
        set({ busy: true, actionFault: undefined });
        for (const href of hrefs) {
          try {
            const reply = await client.send<{ warnings?: string[] }>('PATCH', `${href}+tag/`, undefined, { tag });
            outcome.tagged += 1;
            for (const warning of reply?.warnings ?? []) if (!outcome.warnings.includes(warning)) outcome.warnings.push(warning);
          } catch (error) {
            outcome.faults.push(asFault(error));
          }
        }
        set({ busy: false, actionFault: outcome.faults[0] });
        return outcome;
      },
    };
  });
}

/** After a reload only the selected instances still on the page stay selected. */
function keepSelection(selection: Selection, answer: ListAnswer): Selection {
  if (selection.hrefs.size === 0) return selection;
  const onPage = new Set(answer.resources.map((r) => r.meta.href));
  return { hrefs: new Set([...selection.hrefs].filter((href) => onPage.has(href))), anchor: undefined };
}

export type ResourcesStore = ReturnType<typeof createResourcesStore>;
