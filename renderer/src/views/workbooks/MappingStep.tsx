import { useEffect, useState } from 'react';
import {
  mappingFills,
  type ColumnProposalJson,
  type MappingPreviewAnswer,
  type MappingColumnJson,
  type MappingFileJson,
  type MappingTransform,
  type WorkbookMappingAnswer,
} from '../../../../main/service/contract/mapping-api';
import type { WorkbookInfo } from '../../../../main/service/contract/workbook-api';
import { asFault, type ApiFault } from '../../api/fault';
import { FaultNotice } from '../../components/FaultNotice';
import { Loading } from '../../components/States';
import { useStores } from '../../store/stores';
import { MappingFills } from './MappingFills';

/**
 * The mapping step of a customer's sheet (issue "Customer sheets in any shape", point 6): where
 * the grid will be, each source column with its first values beside the field it fills (or none),
 * the proposal's confidence and reason, the transforms it needs, its values mapped onto the
 * field's choices, the required fields still unfilled; Confirm stages the sheet through the
 * mapping (optionally saved for the customer's next files), and the grid follows. Every control
 * is a native one: Tab moves through the columns, arrows choose a target.
 */
const TRANSFORMS: { kind: MappingTransform['kind']; label: string }[] = [
  { kind: 'trim', label: 'Trim spaces' },
  { kind: 'e164', label: 'E.164 number' },
  { kind: 'device-from-mac', label: 'MAC -> SEP name' },
  { kind: 'node', label: 'Site name -> node' },
];

const hasTransform = (column: MappingColumnJson, kind: string): boolean => (column.transforms ?? []).some((entry) => entry.kind === kind);

/** The column with its transform of this kind replaced (at its place, so the order they run in stays), added, or removed (null). */
function replaced(column: MappingColumnJson, kind: MappingTransform['kind'], next: MappingTransform | null): MappingColumnJson {
  const transforms = column.transforms ?? [];
  const at = transforms.findIndex((entry) => entry.kind === kind);
  if (at < 0) return { ...column, transforms: next ? [...transforms, next] : transforms };
  return { ...column, transforms: transforms.flatMap((entry, index) => (index !== at ? [entry] : next ? [next] : [])) };
}

const withTransform = (column: MappingColumnJson, kind: MappingTransform['kind'], on: boolean): MappingColumnJson =>
  replaced(column, kind, on ? ({ kind } as MappingTransform) : null);

function unfilled(mapping: MappingFileJson, step: WorkbookMappingAnswer): string[] {
  const targets = step.models.find((entry) => entry.model === mapping.model)?.targets ?? [];
  const filled = mappingFills(mapping);
  return targets.filter((target) => target.required && !filled.has(target.name)).map((target) => target.title);
}

function ColumnRow({
  column,
  proposed,
  targets,
  onChange,
}: {
  column: MappingColumnJson;
  proposed: ColumnProposalJson | undefined;
  targets: { name: string; title: string }[];
  onChange: (next: MappingColumnJson) => void;
}) {
  const label = `Target of ${column.header}`;
  const e164 = column.transforms?.find((entry) => entry.kind === 'e164');
  const caseOf = column.transforms?.find((entry) => entry.kind === 'case');
  return (
    <tr>
      <th scope="row">{column.header}</th>
      <td className="mapping-samples">{(proposed?.samples ?? []).join(', ')}</td>
      <td>
        <select
          aria-label={label}
          value={column.target ?? ''}
          onChange={(event) => onChange({ ...column, target: event.target.value || null })}
        >
          <option value="">(not loaded: kept on #source)</option>
          {targets.map((target) => (
            <option key={target.name} value={target.name}>
              {target.title}
            </option>
          ))}
        </select>
      </td>
      <td className="mapping-reason">
        {proposed && proposed.target !== null ? `${Math.round(proposed.confidence * 100)}%: ${proposed.reason}` : proposed?.reason}
      </td>
      <td className="mapping-transforms">
        {TRANSFORMS.map((transform) => (
          <label key={transform.kind} className="mapping-transform">
            <input
              type="checkbox"
              checked={hasTransform(column, transform.kind)}
              onChange={(event) => onChange(withTransform(column, transform.kind, event.target.checked))}
            />{' '}
            {transform.label}
          </label>
        ))}
        {e164 && (
          <label className="mapping-transform">
            country code{' '}
            <input
              aria-label={`Country code of ${column.header}`}
              className="mapping-country"
              value={e164.country_code ?? ''}
              placeholder="site’s"
              maxLength={4}
              onChange={(event) => {
                const code = event.target.value.trim();
                onChange(replaced(column, 'e164', { kind: 'e164', ...(code !== '' ? { country_code: code } : {}) }));
              }}
            />
          </label>
        )}
        <label className="mapping-transform">
          Case{' '}
          <select
            aria-label={`Case of ${column.header}`}
            value={caseOf?.to ?? ''}
            onChange={(event) => {
              const to = event.target.value as 'upper' | 'lower' | 'title' | '';
              onChange(replaced(column, 'case', to === '' ? null : { kind: 'case', to }));
            }}
          >
            <option value="">as it is</option>
            <option value="title">Title Case</option>
            <option value="upper">UPPER</option>
            <option value="lower">lower</option>
          </select>
        </label>
      </td>
    </tr>
  );
}

/** A column's own words for a field's choices (Oui, Exec), each mapped onto a valid value the user may change. */
function ValueMapping({
  column,
  proposed,
  onChange,
}: {
  column: MappingColumnJson;
  proposed: ColumnProposalJson;
  onChange: (next: MappingColumnJson) => void;
}) {
  const values = proposed.values ?? [];
  if (column.target === null || values.length === 0) return null;
  return (
    <fieldset className="mapping-values">
      <legend>Values of {column.header}</legend>
      {values.map((entry) => {
        const now = column.values?.[entry.value] ?? entry.to ?? '';
        return (
          <label key={entry.value}>
            {entry.value} ({entry.count}) -&gt;{' '}
            <input
              aria-label={`${column.header}: ${entry.value} becomes`}
              value={String(now)}
              onChange={(event) => onChange({ ...column, values: { ...(column.values ?? {}), [entry.value]: event.target.value } })}
            />
          </label>
        );
      })}
    </fieldset>
  );
}

/** How long the mapping must stay unchanged before its preview is read again (typing in a value). */
const PREVIEW_AFTER_MS = 300;

/** The first rows as the mapping makes them, read again (on a worker) whenever the mapping changes. */
function MappingPreview({ base, mapping }: { base: string; mapping: MappingFileJson }) {
  const { client } = useStores();
  const [preview, setPreview] = useState<MappingPreviewAnswer | null>(null);
  const [fault, setFault] = useState<ApiFault | null>(null);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      client
        .send<MappingPreviewAnswer>('POST', `${base}preview/`, { mapping })
        .then((answer) => {
          if (!live) return;
          setPreview(answer);
          setFault(null);
        })
        .catch((error: unknown) => live && setFault(asFault(error)));
    }, PREVIEW_AFTER_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, base, mapping]);
  if (fault) return <FaultNotice fault={fault} />;
  if (!preview) return null;
  return (
    <table className="grid-table mapping-preview" aria-label="Mapping preview">
      <caption>The first rows as they will be staged</caption>
      <thead>
        <tr>
          <th scope="col">Row</th>
          {preview.names.map((name) => (
            <th key={name} scope="col">
              {name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {preview.rows.map((row) => (
          <tr key={row.row}>
            <th scope="row">{row.row}</th>
            {row.values.map((value, at) => (
              <td key={preview.names[at]}>{value === null ? '' : String(value)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function MappingStep({ info, onConfirmed }: { info: WorkbookInfo; onConfirmed: () => void }) {
  const { client } = useStores();
  const [step, setStep] = useState<WorkbookMappingAnswer | null>(null);
  const [mapping, setMapping] = useState<MappingFileJson | null>(null);
  const [saveAs, setSaveAs] = useState('');
  const [fault, setFault] = useState<ApiFault | null>(null);
  const [busy, setBusy] = useState(false);
  const base = `/workstation/workbooks/${encodeURIComponent(info.id)}/mapping/`;

  useEffect(() => {
    let live = true;
    client
      .get<WorkbookMappingAnswer>(base)
      .then((answer) => {
        if (!live) return;
        setStep(answer);
        setMapping(answer.mapping);
      })
      .catch((error: unknown) => live && setFault(asFault(error)));
    return () => {
      live = false;
    };
  }, [client, base, info.revision, info.state]);

  if (fault && !step) return <FaultNotice fault={fault} />;
  if (!step || !mapping) return <Loading what="the mapping" />;
  const [sheet] = step.proposal.sheets;
  const model = step.models.find((entry) => entry.model === mapping.model);
  const missing = unfilled(mapping, step);
  const setColumn = (index: number, next: MappingColumnJson): void =>
    setMapping({ ...mapping, columns: mapping.columns.map((column, at) => (at === index ? next : column)) });

  async function confirm(): Promise<void> {
    if (!mapping) return;
    setBusy(true);
    setFault(null);
    try {
      await client.send('POST', base, { mapping, ...(saveAs.trim() !== '' ? { save_as: saveAs.trim() } : {}) });
      onConfirmed();
    } catch (error) {
      setFault(asFault(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="mapping-step" aria-labelledby="mapping-title">
      <h2 id="mapping-title">Map the columns of {step.file_name}</h2>
      <p className="mapping-reason-line">
        {step.applied
          ? 'Staged through this mapping: change it and confirm again to make the rows anew from the file. Undo in the grid then brings back the rows as they were, with your edits.'
          : 'This sheet is not in a template’s layout: choose the field each of its columns fills, then confirm. Nothing is loaded before the rows are checked.'}
      </p>
      {!step.applied && (
        <details className="mapping-why">
          <summary>Why the sheet needs a mapping</summary>
          {step.reason}
        </details>
      )}
      {step.remembered && <p>Starting from the saved mapping “{step.remembered.name}”.</p>}
      <label>
        Model{' '}
        <select aria-label="Model" value={mapping.model} onChange={(event) => setMapping({ ...mapping, model: event.target.value })}>
          {step.models.map((entry) => (
            <option key={entry.model} value={entry.model}>
              {entry.title} ({entry.model})
            </option>
          ))}
        </select>
      </label>{' '}
      <span className="mapping-model-reason">{sheet && sheet.model === mapping.model ? `Proposed from ${sheet.modelReason}.` : ''}</span>
      {missing.length > 0 && (
        <p className="mapping-missing" role="alert">
          Required and not filled: {missing.join(', ')}.
        </p>
      )}
      <table className="grid-table mapping-table" aria-label="Column mapping">
        <thead>
          <tr>
            <th scope="col">Source column</th>
            <th scope="col">First values</th>
            <th scope="col">Field</th>
            <th scope="col">Why</th>
            <th scope="col">Transforms</th>
          </tr>
        </thead>
        <tbody>
          {mapping.columns.map((column, index) => (
            <ColumnRow
              key={column.header}
              column={column}
              proposed={sheet?.columns.find((entry) => entry.header === column.header)}
              targets={model?.targets ?? []}
              onChange={(next) => setColumn(index, next)}
            />
          ))}
        </tbody>
      </table>
      {mapping.columns.map((column, index) => {
        const proposed = sheet?.columns.find((entry) => entry.header === column.header);
        return proposed ? (
          <ValueMapping key={column.header} column={column} proposed={proposed} onChange={(next) => setColumn(index, next)} />
        ) : null;
      })}
      <MappingFills
        mapping={mapping}
        targets={model?.targets ?? []}
        headers={mapping.columns.map((column) => column.header)}
        filled={mappingFills(mapping)}
        hierarchy={info.hierarchy}
        sheets={step.proposal.sheets.length}
        splitReasons={Object.fromEntries((sheet?.splits ?? []).map((split) => [split.header, split.reason]))}
        onChange={setMapping}
      />
      <MappingPreview base={base} mapping={mapping} />
      <div className="mapping-actions">
        <label>
          Save for this customer as{' '}
          <input
            aria-label="Save mapping as"
            value={saveAs}
            placeholder="(not saved)"
            onChange={(event) => setSaveAs(event.target.value)}
          />
        </label>{' '}
        <button type="button" className="primary" disabled={busy} onClick={() => void confirm()}>
          Confirm mapping
        </button>
      </div>
      {fault && <FaultNotice fault={fault} />}
    </section>
  );
}
