import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';

// Placeholder: the form view's store is being written.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FormState {}

export function createFormStore(_client: ApiClient) {
  return createStore<FormState>()(() => ({}));
}
