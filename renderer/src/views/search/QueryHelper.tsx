import { useEffect, useState } from 'react';
import type { FieldsEntry } from '../../store/search-store';
import { useSlice, useStores } from '../../store/stores';
import { useKnownModels } from '../../store/use-model-catalog';
import { appendClause, clauseText, modelOfQuery, OPERATORS, type Joiner } from './query-builder';

/**
 * Builds one clause from a model, one of its summary attributes, an operator and a text, and
 * adds it to the query: joined with and / or when the query already searches that model.
 */
export function QueryHelper({ onAppended }: { onAppended: () => void }) {
  const { search } = useStores();
  const query = useSlice('search', (s) => s.query);
  const home = useSlice('session', (s) => s.user?.hierarchy_pkid);
  const [model, setModel] = useState('relation/LineRelation');
  const [field, setField] = useState('');
  const [operator, setOperator] = useState<string>('startswith');
  const [text, setText] = useState('');
  const [joiner, setJoiner] = useState<Joiner>('and');
  const entry = useSlice('search', (s) => s.fields[model]);
  const known = useKnownModels();
  // Until the service's catalog has come, the chosen model is still offered (by its type).
  const models = known.some((m) => m.model_type === model) ? known : [{ model_type: model, title: model }, ...known];

  useEffect(() => {
    if (home) void search.getState().loadFields(model, home);
  }, [model, home, search]);

  const attrs = entry?.state === 'ready' ? entry.attrs : [];
  const chosenField = field && attrs.some((attr) => attr.name === field) ? field : (attrs[0]?.name ?? '');
  const joins = modelOfQuery(query)?.toLowerCase() === model.toLowerCase() && /\swith\s/i.test(query);
  const add = () => {
    search.getState().setQuery(appendClause(query, model, clauseText(chosenField, operator, text), joiner));
    setText('');
    onAppended();
  };
  return (
    <fieldset className="query-helper">
      <legend>Build a clause</legend>
      <label>
        Model{' '}
        <select value={model} onChange={(event) => (setModel(event.target.value), setField(''))}>
          {models.map((m) => (
            <option key={m.model_type} value={m.model_type}>
              {m.title === m.model_type ? m.model_type : `${m.title} (${m.model_type})`}
            </option>
          ))}
        </select>
      </label>
      <FieldSelect entry={entry} value={chosenField} onChange={setField} />
      <label>
        Operator{' '}
        <select value={operator} onChange={(event) => setOperator(event.target.value)}>
          {OPERATORS.map((op) => (
            <option key={op.value} value={op.value}>
              {op.title}
            </option>
          ))}
        </select>
      </label>
      <label>
        Text <input value={text} onChange={(event) => setText(event.target.value)} placeholder="+33" />
      </label>
      {joins && (
        <label>
          Join with{' '}
          <select value={joiner} onChange={(event) => setJoiner(event.target.value as Joiner)}>
            <option value="and">and</option>
            <option value="or">or</option>
          </select>
        </label>
      )}
      <button type="button" disabled={!chosenField || text === ''} onClick={add}>
        {joins ? `Add with ${joiner}` : query.trim() ? 'Replace query' : 'Use clause'}
      </button>
      {entry?.state === 'error' && (
        <span className="muted">
          The fields of {model} could not be read: {entry.fault.message}
        </span>
      )}
    </fieldset>
  );
}

/** The chosen model's summary attributes: the fields a clause can name. */
function FieldSelect({ entry, value, onChange }: { entry: FieldsEntry | undefined; value: string; onChange: (field: string) => void }) {
  const attrs = entry?.state === 'ready' ? entry.attrs : [];
  return (
    <label>
      Field{' '}
      <select value={value} disabled={attrs.length === 0} onChange={(event) => onChange(event.target.value)}>
        {entry?.state === 'loading' && <option value="">Loading…</option>}
        {entry?.state === 'error' && <option value="">Fields not available</option>}
        {attrs.map((attr) => (
          <option key={attr.name} value={attr.name}>
            {attr.title} ({attr.name})
          </option>
        ))}
      </select>
    </label>
  );
}
