import type { MappingFileJson } from '../../../../main/service/contract/mapping-api';

/**
 * The mapping's sources other than one column per field (issue "Customer sheets in any shape",
 * point 3): a value for every row (the chosen node as Hierarchy Node), columns joined into one
 * field (first and last name into the alerting name), a column split into several (full names
 * into first and last names), and each sheet's name as its rows' site (a file with one sheet per
 * site). Each is a row of native controls: Tab moves through them, and the preview below reads
 * the mapping again at each change.
 */
type Target = { name: string; title: string };
type Mapping = MappingFileJson;
type Join = NonNullable<Mapping['joins']>[number];
type Split = NonNullable<Mapping['splits']>[number];

function TargetSelect({
  label,
  value,
  targets,
  onChange,
  none,
}: {
  label: string;
  value: string | null;
  targets: Target[];
  onChange: (next: string | null) => void;
  none?: string;
}) {
  return (
    <select aria-label={label} value={value ?? ''} onChange={(event) => onChange(event.target.value || null)}>
      {none !== undefined && <option value="">{none}</option>}
      {targets.map((target) => (
        <option key={target.name} value={target.name}>
          {target.title}
        </option>
      ))}
    </select>
  );
}

function HeaderSelect({
  label,
  value,
  headers,
  onChange,
}: {
  label: string;
  value: string;
  headers: string[];
  onChange: (next: string) => void;
}) {
  return (
    <select aria-label={label} value={value} onChange={(event) => onChange(event.target.value)}>
      {headers.map((header) => (
        <option key={header} value={header}>
          {header}
        </option>
      ))}
    </select>
  );
}

/** Separators by name: a space or a comma typed in a box cannot be seen. */
const SEPARATORS: [string, string][] = [
  [' ', 'a space'],
  [', ', 'a comma and a space'],
  [',', 'a comma'],
  [';', 'a semicolon'],
  [' - ', 'a dash'],
  ['-', 'a hyphen'],
  ['/', 'a slash'],
  ['.', 'a full stop'],
  ['_', 'an underscore'],
];

function SeparatorSelect({
  label,
  value,
  empty,
  onChange,
}: {
  label: string;
  value: string;
  empty: boolean;
  onChange: (next: string) => void;
}) {
  const known = SEPARATORS.some(([separator]) => separator === value) || (empty && value === '');
  return (
    <select aria-label={label} value={value} onChange={(event) => onChange(event.target.value)}>
      {empty && <option value="">nothing</option>}
      {SEPARATORS.map(([separator, name]) => (
        <option key={name} value={separator}>
          {name}
        </option>
      ))}
      {!known && <option value={value}>“{value}”</option>}
    </select>
  );
}

/** The mapping with one of its parts given, or taken out (undefined): a mapping file has no empty lists. */
function withPart<K extends 'constants' | 'joins' | 'splits' | 'sheet_name'>(
  mapping: Mapping,
  key: K,
  value: Mapping[K] | undefined,
): Mapping {
  const next = { ...mapping };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

/** A field for a new entry: the first one nothing fills yet. */
const freeTarget = (targets: Target[], filled: Set<string>): string =>
  (targets.find((target) => !filled.has(target.name)) ?? targets[0]).name;

function Constants({ mapping, targets, filled, hierarchy, onChange }: Props) {
  const entries = Object.entries(mapping.constants ?? {});
  const set = (next: [string, string][]): void => {
    onChange(withPart(mapping, 'constants', next.length > 0 ? Object.fromEntries(next) : undefined));
  };
  return (
    <fieldset className="mapping-fills">
      <legend>The same value in every row</legend>
      {entries.map(([target, value], at) => (
        <div key={target} className="mapping-fill">
          <TargetSelect
            label={`Field given in every row (${at + 1})`}
            value={target}
            targets={targets}
            onChange={(next) => set(entries.map((entry, index) => (index === at ? [next ?? target, entry[1]] : entry)))}
          />{' '}
          ={' '}
          <input
            aria-label={`Value in every row for ${targets.find((entry) => entry.name === target)?.title ?? target}`}
            value={value}
            onChange={(event) => set(entries.map((entry, index) => (index === at ? [entry[0], event.target.value] : entry)))}
          />{' '}
          <button type="button" onClick={() => set(entries.filter((_, index) => index !== at))}>
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        onClick={() => {
          const target = freeTarget(targets, filled);
          set([...entries, [target, target === '#Hierarchy Node' ? hierarchy : '']]);
        }}
      >
        Add a value for every row
      </button>
    </fieldset>
  );
}

function Joins({ mapping, targets, headers, filled, onChange }: Props) {
  const joins = mapping.joins ?? [];
  const set = (next: Join[]): void => {
    onChange(withPart(mapping, 'joins', next.length > 0 ? next : undefined));
  };
  const change = (at: number, next: Partial<Join>): void => set(joins.map((join, index) => (index === at ? { ...join, ...next } : join)));
  return (
    <fieldset className="mapping-fills">
      <legend>Columns joined into one field</legend>
      {joins.map((join, at) => (
        <div key={at} className="mapping-fill">
          <TargetSelect
            label={`Field the join ${at + 1} fills`}
            value={join.target}
            targets={targets}
            onChange={(next) => change(at, { target: next ?? join.target })}
          />{' '}
          ={' '}
          {join.headers.map((header, part) => (
            <span key={part}>
              {part > 0 && ' + '}
              <HeaderSelect
                label={`Join ${at + 1}, column ${part + 1}`}
                value={header}
                headers={headers}
                onChange={(next) => change(at, { headers: join.headers.map((old, index) => (index === part ? next : old)) })}
              />
            </span>
          ))}{' '}
          <button type="button" onClick={() => change(at, { headers: [...join.headers, headers[0]] })}>
            + column
          </button>{' '}
          separated by{' '}
          <SeparatorSelect
            label={`Separator of join ${at + 1}`}
            value={join.separator}
            empty
            onChange={(separator) => change(at, { separator })}
          />{' '}
          <button type="button" onClick={() => set(joins.filter((_, index) => index !== at))}>
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        disabled={headers.length === 0}
        onClick={() => set([...joins, { target: freeTarget(targets, filled), headers: headers.slice(0, 2), separator: ' ' }])}
      >
        Join columns into a field
      </button>
    </fieldset>
  );
}

function Splits({ mapping, targets, headers, filled, onChange, splitReasons }: Props) {
  const splits = mapping.splits ?? [];
  const set = (next: Split[]): void => {
    onChange(withPart(mapping, 'splits', next.length > 0 ? next : undefined));
  };
  const change = (at: number, next: Partial<Split>): void =>
    set(splits.map((split, index) => (index === at ? { ...split, ...next } : split)));
  return (
    <fieldset className="mapping-fills">
      <legend>A column split into several fields</legend>
      {splits.map((split, at) => (
        <div key={at} className="mapping-fill">
          <HeaderSelect
            label={`Column split ${at + 1}`}
            value={split.header}
            headers={headers}
            onChange={(next) => change(at, { header: next })}
          />{' '}
          cut at{' '}
          <SeparatorSelect
            label={`Separator of split ${at + 1}`}
            value={split.separator}
            empty={false}
            onChange={(separator) => change(at, { separator })}
          />{' '}
          into{' '}
          {split.targets.map((target, part) => (
            <span key={part}>
              {part > 0 && ', '}
              <TargetSelect
                label={`Split ${at + 1}, part ${part + 1}${part === split.targets.length - 1 ? ' (and the rest)' : ''}`}
                value={target}
                targets={targets}
                none="(not loaded)"
                onChange={(next) => change(at, { targets: split.targets.map((old, index) => (index === part ? next : old)) })}
              />
            </span>
          ))}{' '}
          <button type="button" disabled={split.targets.length >= 10} onClick={() => change(at, { targets: [...split.targets, null] })}>
            + part
          </button>{' '}
          <button type="button" onClick={() => set(splits.filter((_, index) => index !== at))}>
            Remove
          </button>
          {splitReasons[split.header] && <span className="mapping-reason"> Proposed: {splitReasons[split.header]}.</span>}
        </div>
      ))}
      <button
        type="button"
        disabled={headers.length === 0}
        onClick={() => set([...splits, { header: headers[0], separator: ' ', targets: [freeTarget(targets, filled), null] }])}
      >
        Split a column
      </button>
    </fieldset>
  );
}

interface Props {
  mapping: Mapping;
  targets: Target[];
  /** The source columns' headers. */
  headers: string[];
  /** What the mapping fills already (contract's mappingFills). */
  filled: Set<string>;
  /** The workbook's node: the value a new Hierarchy Node for every row starts with. */
  hierarchy: string;
  /** Why the proposal split a column, by its header. */
  splitReasons: Record<string, string>;
  onChange: (next: Mapping) => void;
}

/**
 * Each sheet's name as its rows' site: offered when the file has more than one sheet. It takes
 * the place of a Hierarchy Node given in every row (one source per field), and gives it back.
 */
function SheetNames({ mapping, hierarchy, onChange }: Pick<Props, 'mapping' | 'hierarchy' | 'onChange'>) {
  const on = mapping.sheet_name?.target === '#Hierarchy Node';
  const toggle = (checked: boolean): void => {
    const others = { ...mapping.constants };
    delete others['#Hierarchy Node'];
    const kept = withPart(mapping, 'constants', Object.keys(others).length > 0 ? others : undefined);
    if (checked) onChange(withPart(kept, 'sheet_name', { target: '#Hierarchy Node', transforms: [{ kind: 'node' }] }));
    else if (mapping.columns.some((column) => column.target === '#Hierarchy Node')) onChange(withPart(kept, 'sheet_name', undefined));
    else onChange(withPart(withPart(kept, 'sheet_name', undefined), 'constants', { ...others, '#Hierarchy Node': hierarchy }));
  };
  return (
    <label className="mapping-sheet-names">
      <input type="checkbox" checked={on} onChange={(event) => toggle(event.target.checked)} /> Each sheet is a site: its name is the
      Hierarchy Node of its rows (the node of that name below the workbook’s)
    </label>
  );
}

export function MappingFills(props: Props & { sheets: number }) {
  return (
    <div className="mapping-fills-all">
      {props.sheets > 1 && <SheetNames mapping={props.mapping} hierarchy={props.hierarchy} onChange={props.onChange} />}
      <Constants {...props} />
      <Joins {...props} />
      <Splits {...props} />
    </div>
  );
}
