import type { SchemaProperty } from '../../../../main/service/contract/resource-api';
import { useSlice, useStores } from '../../store/stores';
import { FieldNotes, TemplateBadge, fieldId, useTemplateFill } from './field-parts';
import { ScalarField } from './ScalarField';
import { getAt, joinPath, kindOf, visibleFields } from './schema-paths';

/** Any field of the schema at its path: nested objects and lists recurse into this. */
export function FieldInput({ path, property }: { path: string; property: SchemaProperty }) {
  const kind = kindOf(property);
  if (kind === 'object') return <ObjectFieldset path={path} property={property} />;
  if (kind === 'array') return <ListField path={path} property={property} />;
  return <ScalarField path={path} property={property} />;
}

/** A nested object (the call-forward settings of a line) as a fieldset of its own fields. */
function ObjectFieldset({ path, property }: { path: string; property: SchemaProperty }) {
  const id = fieldId(path);
  return (
    <fieldset className="form-object" id={id} disabled={property.readonly}>
      <legend>
        {property.title ?? path}
        <TemplateBadge path={path} />
      </legend>
      {property.description && <p className="field-help">{property.description}</p>}
      <div className="form-grid">
        {visibleFields(property).map(([name, child]) => (
          <FieldInput key={name} path={joinPath(path, name)} property={child} />
        ))}
      </div>
    </fieldset>
  );
}

/** A list as repeatable rows (objects) or repeatable inputs (plain values), with Add row / Remove. */
function ListField({ path, property }: { path: string; property: SchemaProperty }) {
  const { form } = useStores();
  const count = useSlice('form', (s) => {
    const rows = getAt(s.values, path);
    return Array.isArray(rows) ? rows.length : 0;
  });
  const error = useSlice('form', (s) => s.errors[path]);
  const fill = useTemplateFill(path);
  const id = fieldId(path);
  const title = property.title ?? path;
  const items = property.items ?? { type: 'string' };
  const full = property.maxItems !== undefined && count >= property.maxItems;
  return (
    <fieldset
      className={`form-list${error ? ' has-error' : ''}`}
      id={id}
      disabled={property.readonly}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend>
        {title} <span className="muted">({count})</span>
        <TemplateBadge path={path} />
      </legend>
      {count === 0 && <p className="muted list-empty">{fill.byTemplate ? 'No rows: the template builds this list.' : 'No rows yet.'}</p>}
      {Array.from({ length: count }, (_, index) => (
        <ListRow
          key={index}
          path={joinPath(path, index)}
          items={items}
          index={index}
          listTitle={title}
          onRemove={() => form.getState().removeRow(path, index)}
        />
      ))}
      <button type="button" onClick={() => form.getState().addRow(path)} disabled={full}>
        Add row
      </button>
      <FieldNotes id={id} help={property.description} error={error} />
    </fieldset>
  );
}

function ListRow({
  path,
  items,
  index,
  listTitle,
  onRemove,
}: {
  path: string;
  items: SchemaProperty;
  index: number;
  listTitle: string;
  onRemove: () => void;
}) {
  const remove = (
    <button type="button" className="link remove-row" onClick={onRemove} aria-label={`Remove row ${index + 1} of ${listTitle}`}>
      Remove
    </button>
  );
  if (kindOf(items) !== 'object') {
    return (
      <div className="list-row list-row-scalar">
        <ScalarField path={path} property={items} label={`${items.title ?? listTitle} ${index + 1}`} />
        {remove}
      </div>
    );
  }
  return (
    <div className="list-row" role="group" aria-label={`${items.title ?? 'Row'} ${index + 1}`}>
      <span className="row-number" aria-hidden="true">
        {index + 1}
      </span>
      <div className="form-grid">
        {visibleFields(items).map(([name, child]) => (
          <FieldInput key={name} path={joinPath(path, name)} property={child} />
        ))}
      </div>
      {remove}
    </div>
  );
}
