import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';

// Placeholder: the transactions view's store is being written.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface TransactionsState {}

export function createTransactionsStore(_client: ApiClient) {
  return createStore<TransactionsState>()(() => ({}));
}
