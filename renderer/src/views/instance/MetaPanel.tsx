import type { ApiFault } from '../../api/fault';
import type { InstanceMeta, Reference } from '../../../../main/service/contract/resource-api';
import { FaultNotice } from '../../components/FaultNotice';
import { modelTypeOfHref } from '../../store/instance-store';
import { useReferenceName } from './instance-name';
import { TagEditor, VersionTagEditor } from './TagEditor';

const REFERENCE_KINDS = ['self', 'parent', 'children', 'device', 'owner'] as const;
const KIND_TITLES: Record<(typeof REFERENCE_KINDS)[number], string> = {
  self: 'Self',
  parent: 'Parent',
  children: 'Children',
  device: 'Device',
  owner: 'Owner',
};

interface MetaPanelProps {
  meta: InstanceMeta;
  warnings: string[];
  /** Why a tag change may be refused (a role hint); the editors stay enabled. */
  why?: string;
  /** A refused or failed tag or version-tag change, shown under the editors. */
  fault?: ApiFault;
  busy: boolean;
  onOpen(reference: Reference): void;
  onAddTag(tag: string): Promise<boolean>;
  onRemoveTag(tag: string): void;
  onVersionTag(versionTag: string): Promise<void>;
}

/** What the service says about the instance: where it lives, its tags and what it links to. */
export function MetaPanel({ meta, warnings, why, fault, busy, onOpen, onAddTag, onRemoveTag, onVersionTag }: MetaPanelProps) {
  const allWarnings = [...(meta.warnings ?? []), ...warnings];
  return (
    <div className="card inst-meta" data-testid="instance-meta">
      <h2>Meta</h2>
      {allWarnings.length > 0 && (
        <ul className="inst-warnings" role="status">
          {allWarnings.map((warning) => (
            <li key={warning}>⚠ {warning}</li>
          ))}
        </ul>
      )}
      <dl className="fields">
        <dt>Model type</dt>
        <dd>
          <code>{meta.model_type}</code>
        </dd>
        <dt>Hierarchy</dt>
        <dd>{meta.hierarchy}</dd>
        <dt>Pkid</dt>
        <dd>
          <code>{meta.pkid}</code>
        </dd>
        <dt>Schema version</dt>
        <dd>{meta.schema_version ?? <span className="muted">—</span>}</dd>
        {meta.cached !== undefined && (
          <>
            <dt>Cached</dt>
            <dd>{meta.cached ? 'Yes: read from the cache' : 'No: read from the device'}</dd>
          </>
        )}
        <dt>Version tag</dt>
        <dd>
          <VersionTagEditor key={meta.version_tag ?? ''} value={meta.version_tag} why={why} busy={busy} onSet={onVersionTag} />
        </dd>
        <dt>Tags</dt>
        <dd>
          <TagEditor tags={meta.tags ?? []} why={why} busy={busy} onAdd={onAddTag} onRemove={onRemoveTag} />
        </dd>
      </dl>
      {fault && <FaultNotice fault={fault} />}
      <h3>References</h3>
      <dl className="fields inst-refs">
        {REFERENCE_KINDS.map((kind) => {
          const list = meta.references?.[kind] ?? [];
          return [
            <dt key={`${kind}-t`}>{KIND_TITLES[kind]}</dt>,
            <dd key={`${kind}-d`}>
              {list.length === 0 ? (
                <span className="muted">none</span>
              ) : (
                <ul>
                  {list.map((reference) => (
                    <ReferenceItem key={reference.href} reference={reference} onOpen={onOpen} />
                  ))}
                </ul>
              )}
            </dd>,
          ];
        })}
      </dl>
    </div>
  );
}

/** A reference by the name of what it points to (Paris, SEP00AA00000000), its model beside it; the pkid only when it has no name. */
function ReferenceItem({ reference, onOpen }: { reference: Reference; onOpen(reference: Reference): void }) {
  const name = useReferenceName(reference.href);
  const modelType = modelTypeOfHref(reference.href);
  return (
    <li>
      <button type="button" className="link" data-href={reference.href} title={reference.pkid} onClick={() => onOpen(reference)}>
        {name ?? modelType}
      </button>{' '}
      {name ? <code className="muted">{modelType}</code> : <code className="muted">{reference.pkid}</code>}
    </li>
  );
}
