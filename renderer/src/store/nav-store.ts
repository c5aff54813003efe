import { createStore } from 'zustand/vanilla';

export type ViewName =
  | 'resources'
  | 'instance'
  | 'form'
  | 'workbooks'
  | 'workbook'
  | 'viewer'
  | 'transactions'
  | 'transaction'
  | 'search'
  | 'settings'
  | 'sync'
  | 'help';

/** Where the user is: one view and what it shows. Every view reads its target from here. */
export interface Place {
  view: ViewName;
  /** Model type shown by the resources view and the form. */
  modelType?: string;
  /** Instance href for the instance view and the edit form. */
  href?: string;
  /** Transaction id for the transaction detail. */
  transactionId?: string;
  /** Search text for the search view. */
  query?: string;
  /** The staged workbook open in the grid. */
  workbookId?: string;
  /** The export or file open read-only in the viewer. */
  viewerId?: string;
  /** The remote profile (by name) whose Sync panel is shown. */
  profile?: string;
}

export interface NavState {
  place: Place;
  history: Place[];
  go(place: Place): void;
  back(): void;
}

export function createNavStore(start: Place = { view: 'resources', modelType: 'relation/LineRelation' }) {
  return createStore<NavState>()((set, get) => ({
    place: start,
    history: [],
    go(place) {
      set({ place, history: [...get().history.slice(-49), get().place] });
    },
    back() {
      const history = get().history;
      const previous = history[history.length - 1];
      if (previous) set({ place: previous, history: history.slice(0, -1) });
    },
  }));
}

export type NavStore = ReturnType<typeof createNavStore>;
