import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';

// Placeholder: the instance view's store is being written.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface InstanceState {}

export function createInstanceStore(_client: ApiClient) {
  return createStore<InstanceState>()(() => ({}));
}
