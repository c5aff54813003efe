import { PAGE_SIZE } from '../../store/transactions-store';
import { useSlice, useStores } from '../../store/stores';
import { useKnownModels } from '../../store/use-model-catalog';
import { STATUSES, TOOL_MODEL_TYPES, typeTitle } from './tx-format';

/** Status and model type filters (applied by the service), the paging and the refresh state. */
export function TransactionFilterBar() {
  const { transactions } = useStores();
  const filters = useSlice('transactions', (s) => s.filters);
  const skip = useSlice('transactions', (s) => s.skip);
  const total = useSlice('transactions', (s) => s.total);
  const shown = useSlice('transactions', (s) => s.rows.length);
  const auto = useSlice('transactions', (s) => s.autoRefreshing);
  const store = transactions.getState();
  // The models the service says a node holds (its catalog), then the tools that run transactions.
  const models = useKnownModels();
  const modelTypes = [...models.map((model) => model.model_type), ...TOOL_MODEL_TYPES];
  return (
    <div className="toolbar tx-toolbar">
      <label>
        Status{' '}
        <select value={filters.status} onChange={(event) => void store.setFilters({ status: event.target.value })}>
          <option value="">Any status</option>
          {STATUSES.map((status) => (
            <option key={status}>{status}</option>
          ))}
        </select>
      </label>
      <label>
        Type{' '}
        <select value={filters.modelType} onChange={(event) => void store.setFilters({ modelType: event.target.value })}>
          <option value="">Any type</option>
          {/* By the names the lists use (Line Relation); the model type is the value sent. */}
          {modelTypes.map((modelType) => (
            <option key={modelType} value={modelType}>
              {typeTitle(models, modelType)}
            </option>
          ))}
        </select>
      </label>
      {(filters.status || filters.modelType) && (
        <button type="button" className="link" onClick={() => void store.setFilters({ status: '', modelType: '' })}>
          Clear filters
        </button>
      )}
      <span className="spacer" />
      {auto && (
        <span className="tx-live" role="status">
          <span className="spinner" aria-hidden="true" /> Live: a transaction is running
        </span>
      )}
      <button type="button" onClick={() => void store.refreshList()}>
        Refresh
      </button>
      <span className="tx-pager">
        <button
          type="button"
          aria-label="Previous page"
          title="Previous page"
          disabled={skip === 0}
          onClick={() => void store.setSkip(skip - PAGE_SIZE)}
        >
          ‹
        </button>
        <span className="muted" data-testid="transactions-range">
          {total === 0 ? 'None' : `${skip + 1}–${skip + shown} of ${total.toLocaleString('en')}`}
        </span>
        <button
          type="button"
          aria-label="Next page"
          title="Next page"
          disabled={skip + PAGE_SIZE >= total}
          onClick={() => void store.setSkip(skip + PAGE_SIZE)}
        >
          ›
        </button>
      </span>
    </div>
  );
}
