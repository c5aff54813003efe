import type { ReactNode } from 'react';

/**
 * An instance's data as a definition list: nested objects (the call-forward settings) become
 * small lists inside their field, arrays a numbered list, so nothing is shown as raw JSON.
 */
export function DataList({
  data,
  titles,
  prefix = '',
}: {
  data: Record<string, unknown>;
  titles: Record<string, string>;
  prefix?: string;
}) {
  const entries = Object.entries(data).sort(([a], [b]) => rank(titles, `${prefix}${a}`) - rank(titles, `${prefix}${b}`));
  if (entries.length === 0) return <p className="muted">No fields.</p>;
  return (
    <dl className={`fields inst-fields${prefix ? ' nested' : ''}`}>
      {entries.map(([name, value]) => {
        const path = `${prefix}${name}`;
        const title = titles[path];
        return (
          <div className="inst-field" key={name}>
            <dt title={path}>
              {title ?? name}
              {title && title !== name && <code className="inst-name">{name}</code>}
            </dt>
            <dd>{valueOf(value, titles, `${path}.`)}</dd>
          </div>
        );
      })}
    </dl>
  );
}

function valueOf(value: unknown, titles: Record<string, string>, prefix: string): ReactNode {
  if (value === null || value === undefined || value === '') return <span className="muted">—</span>;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">none</span>;
    if (value.every((item) => typeof item !== 'object' || item === null)) return value.map((item) => String(item)).join(', ');
    return (
      <ol className="inst-array">
        {value.map((item, index) => (
          <li key={index}>{valueOf(item, titles, prefix)}</li>
        ))}
      </ol>
    );
  }
  if (typeof value === 'object') return <DataList data={value as Record<string, unknown>} titles={titles} prefix={prefix} />;
  return String(value);
}

/** Fields in the form's order (the titles map keeps the schema's order); unknown ones after. */
function rank(titles: Record<string, string>, path: string): number {
  const index = Object.keys(titles).indexOf(path);
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
}
