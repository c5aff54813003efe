import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';

// Placeholder: the resources view's store is being written.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ResourcesState {}

export function createResourcesStore(_client: ApiClient) {
  return createStore<ResourcesState>()(() => ({}));
}
