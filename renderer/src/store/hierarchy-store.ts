import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';
import { asFault, type ApiFault } from '../api/fault';
import type { Instance, ListAnswer } from '../../../main/service/contract/resource-api';

const NODES = '/api/data/HierarchyNode/';
/** The API's maximum page: a node's children arrive in pages this size, the first shown at once. */
const PAGE = 2000;

export interface TreeNode {
  pkid: string;
  name: string;
  /** Dot path from the root, e.g. `sys.hcs.Telco.Acme.Paris`. */
  path: string;
  nodeType: string;
  parent?: string;
  children?: string[];
  childState: 'idle' | 'loading' | 'loaded' | 'error';
  childTotal?: number;
  fault?: ApiFault;
}

export interface FilterHit {
  pkid: string;
  path: string;
  nodeType: string;
}

export interface HierarchyState {
  nodes: Record<string, TreeNode>;
  rootPkid?: string;
  expanded: Record<string, boolean>;
  selected?: string;
  filter: string;
  filterHits?: FilterHit[];
  filterFault?: ApiFault;
  rootFault?: ApiFault;
  loadRoot(pkid: string): Promise<void>;
  expand(pkid: string): Promise<void>;
  collapse(pkid: string): void;
  select(pkid: string): void;
  setFilter(text: string): Promise<void>;
  /** Opens every ancestor of a node found by the filter, then selects it. */
  reveal(hit: FilterHit): Promise<void>;
  refreshChildren(pkid: string): Promise<void>;
}

export function nodeOf(instance: Instance): TreeNode {
  const name = String(instance.data.name ?? '');
  const path = instance.meta.path?.dot ?? (name === instance.meta.hierarchy ? name : `${instance.meta.hierarchy}.${name}`);
  return { pkid: instance.meta.pkid, name, path, nodeType: String(instance.data.node_type ?? ''), childState: 'idle' };
}

export function createHierarchyStore(client: ApiClient) {
  const store = createStore<HierarchyState>()((set, get) => {
    const patch = (pkid: string, change: Partial<TreeNode>): void => {
      const node = get().nodes[pkid];
      if (node) set({ nodes: { ...get().nodes, [pkid]: { ...node, ...change } } });
    };

    const fetchPage = (pkid: string, skip: number) =>
      client.get<ListAnswer>(NODES, { hierarchy: pkid, traversal: 'local', limit: PAGE, skip, order_by: 'name', direction: 'asc' });

    /** Adds one page of children under a parent, skipping the root that lists itself. */
    const addChildren = (parent: string, page: ListAnswer): void => {
      const nodes = { ...get().nodes };
      const owner = nodes[parent];
      if (!owner) return;
      const children = [...(owner.children ?? [])];
      // A set, not children.includes(): with 10,000 children the array scan made this quadratic (1 s+).
      const known = new Set(children);
      let listsItself = false;
      for (const instance of page.resources) {
        if (instance.meta.pkid === parent) {
          listsItself = true;
          continue;
        }
        const child = nodeOf(instance);
        nodes[child.pkid] = { ...(nodes[child.pkid] ?? child), parent };
        if (!known.has(child.pkid)) {
          known.add(child.pkid);
          children.push(child.pkid);
        }
      }
      nodes[parent] = { ...owner, children, childTotal: Math.max(children.length, page.pagination.total - (listsItself ? 1 : 0)) };
      set({ nodes });
    };

    return {
      nodes: {},
      expanded: {},
      filter: '',
      async loadRoot(pkid) {
        try {
          const root = await client.get<Instance>(`${NODES}${pkid}/`);
          const node = nodeOf(root);
          set({ nodes: { [node.pkid]: node }, rootPkid: node.pkid, selected: get().selected ?? node.pkid, rootFault: undefined });
          await get().expand(node.pkid);
        } catch (error) {
          set({ rootFault: asFault(error) });
        }
      },
      async expand(pkid) {
        set({ expanded: { ...get().expanded, [pkid]: true } });
        const node = get().nodes[pkid];
        if (!node || node.childState === 'loaded' || node.childState === 'loading') return;
        patch(pkid, { childState: 'loading', fault: undefined, children: [] });
        try {
          const first = await fetchPage(pkid, 0);
          // The rest of a big node's children in parallel, appended in order as they come. Asked
          // for before the first page is laid out, so the service works while the tree paints.
          const skips: number[] = [];
          for (let skip = PAGE; skip < first.pagination.total; skip += PAGE) skips.push(skip);
          const rest = Promise.all(skips.map((skip) => fetchPage(pkid, skip)));
          addChildren(pkid, first);
          const pages = await rest;
          for (const page of pages) addChildren(pkid, page);
          patch(pkid, { childState: 'loaded' });
        } catch (error) {
          patch(pkid, { childState: 'error', fault: asFault(error) });
        }
      },
      collapse(pkid) {
        const expanded = { ...get().expanded };
        delete expanded[pkid];
        set({ expanded });
      },
      select(pkid) {
        set({ selected: pkid });
      },
      async setFilter(text) {
        set({ filter: text, filterFault: undefined });
        const root = get().rootPkid;
        if (text.trim() === '' || !root) {
          set({ filterHits: undefined });
          return;
        }
        try {
          const answer = await client.get<ListAnswer>(NODES, {
            hierarchy: root,
            traversal: 'down',
            filter_field: 'name',
            filter_condition: 'contains',
            filter_text: text.trim(),
            limit: 200,
            order_by: 'name',
          });
          if (get().filter !== text) return;
          set({
            filterHits: answer.resources.map((r) => ({
              pkid: r.meta.pkid,
              path: nodeOf(r).path,
              nodeType: String(r.data.node_type ?? ''),
            })),
          });
        } catch (error) {
          set({ filterFault: asFault(error), filterHits: [] });
        }
      },
      async reveal(hit) {
        const root = get().nodes[get().rootPkid ?? ''];
        if (!root) return;
        const names = hit.path
          .slice(root.path.length + 1)
          .split('.')
          .filter(Boolean);
        let current = root;
        for (const name of names) {
          await get().expand(current.pkid);
          const next = (get().nodes[current.pkid]?.children ?? []).map((id) => get().nodes[id]).find((n) => n?.name === name);
          if (!next) break;
          current = next;
        }
        set({ selected: current.pkid, filter: '', filterHits: undefined });
      },
      async refreshChildren(pkid) {
        patch(pkid, { childState: 'idle', children: [] });
        await get().expand(pkid);
      },
    };
  });
  return store;
}

export type HierarchyStore = ReturnType<typeof createHierarchyStore>;

export interface VisibleRow {
  pkid: string;
  depth: number;
}

/** The rows the tree shows: the root, then each expanded node's children, depth first. */
export function visibleRows(state: Pick<HierarchyState, 'nodes' | 'rootPkid' | 'expanded'>): VisibleRow[] {
  const rows: VisibleRow[] = [];
  const walk = (pkid: string, depth: number): void => {
    rows.push({ pkid, depth });
    if (!state.expanded[pkid]) return;
    for (const child of state.nodes[pkid]?.children ?? []) walk(child, depth + 1);
  };
  if (state.rootPkid) walk(state.rootPkid, 0);
  return rows;
}
