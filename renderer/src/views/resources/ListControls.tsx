import { useId } from 'react';
import type { CatalogModel } from '../../store/catalog-store';
import type { Traversal } from '../../store/resources-store';

const TRAVERSALS: { value: Traversal; label: string; hint: string }[] = [
  { value: 'down', label: 'This node and below', hint: 'Instances at this node and every node under it' },
  { value: 'local', label: 'This node only', hint: 'Only the instances stored at this node' },
  { value: 'up', label: 'This node and above', hint: 'Instances at this node and its ancestors (settings inherited from above)' },
];

/** The model types this node can hold. */
export function ModelPicker({ models, value, onChange }: { models: CatalogModel[]; value: string; onChange(modelType: string): void }) {
  const id = useId();
  return (
    <span className="res-control">
      <label htmlFor={id}>Model</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {models.map((model) => (
          <option key={model.model_type} value={model.model_type}>
            {model.title} ({model.model_type})
          </option>
        ))}
      </select>
    </span>
  );
}

/** Where the list looks from the node: down (the service's default), only here, or up. */
export function TraversalToggle({ value, onChange }: { value: Traversal; onChange(traversal: Traversal): void }) {
  return (
    <div className="res-control segmented" role="radiogroup" aria-label="Traversal">
      <span className="res-control-label">Show</span>
      {TRAVERSALS.map((option) => (
        <button
          key={option.value}
          type="button"
          role="radio"
          aria-checked={value === option.value}
          className={value === option.value ? 'on' : ''}
          title={`${option.hint} (traversal=${option.value})`}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
