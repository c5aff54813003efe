import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';

// Placeholder: the search view's store is being written.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SearchState {}

export function createSearchStore(_client: ApiClient) {
  return createStore<SearchState>()(() => ({}));
}
