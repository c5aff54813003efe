import { useEffect, useState } from 'react';
import { titleOf } from '../store/catalog-store';
import type { Instance } from '../../../main/service/contract/resource-api';
import { FaultNotice } from '../components/FaultNotice';
import { LiveTarget, useLiveWorkspace } from '../components/live-workspace';
import { Empty, Loading } from '../components/States';
import { modelTypeOfHref } from '../store/instance-store';
import { useSlice, useStores } from '../store/stores';
import { useKnownModels } from '../store/use-model-catalog';
import { DataList } from './instance/DataList';
import { nameOf } from './instance/instance-name';
import { MetaPanel } from './instance/MetaPanel';
import { saveFile } from '../api/downloads';
import { useRoleHint } from './resources/role';
import { RoleNote } from './resources/RoleNote';
import { ExportButtons } from './viewer/ExportButtons';
import './instance/instance.css';

/** One instance: its data and meta, with edit, delete, tag, version tag and export. */
export function InstanceView() {
  const { instance: store } = useStores();
  const href = useSlice('nav', (s) => s.place.href);
  const loadState = useSlice('instance', (s) => s.loadState);
  const instance = useSlice('instance', (s) => s.instance);
  const fault = useSlice('instance', (s) => s.fault);

  useEffect(() => {
    if (href) void store.getState().load(href);
  }, [href, store]);

  let body;
  if (!href) body = <Empty title="No instance chosen.">Open one from a list or a search.</Empty>;
  else if (loadState === 'error' && fault) body = <FaultNotice fault={fault} onRetry={() => void store.getState().load(href)} />;
  else if (!instance || loadState === 'loading') body = <Loading what="the instance" />;
  else body = <InstanceBody instance={instance} />;
  return (
    <section className="instance" data-testid="instance-view" data-load-state={loadState}>
      {body}
    </section>
  );
}

function InstanceBody({ instance }: { instance: Instance }) {
  const { instance: store, nav, status } = useStores();
  const titles = useSlice('instance', (s) => s.titles);
  const warnings = useSlice('instance', (s) => s.warnings);
  const busy = useSlice('instance', (s) => s.busy);
  const actionFault = useSlice('instance', (s) => s.actionFault);
  const role = useSlice('session', (s) => s.user?.role);
  const actionArea = useSlice('instance', (s) => s.actionArea);
  const hint = useRoleHint();
  const [confirming, setConfirming] = useState(false);
  const live = useLiveWorkspace();
  const modelType = instance.meta.model_type;
  const models = useKnownModels();
  const title = titleOf(models, modelType);
  const href = instance.meta.href ?? `/api/${modelType}/${instance.meta.pkid}/`;

  const remove = async (): Promise<void> => {
    setConfirming(false);
    // The dialog named the live deployment: the client does not ask a second time.
    const id = await store.getState().remove(live?.name);
    if (!id) return;
    void status.getState().track(id, `Delete ${modelType} ${nameOf(instance)}`);
    nav.getState().go({ view: 'transaction', transactionId: id });
  };
  const exportSheet = async (): Promise<void> => {
    const file = await store.getState().exportSheet();
    if (file) saveFile(file.bytes, file.fileName, file.type);
  };
  const exportJson = (): void =>
    saveFile(JSON.stringify(instance, null, 2), `${modelType.replace(/\//g, '_')}_${instance.meta.pkid}.json`, 'application/json');
  const exportWhy = role === 'readonly' ? 'Your role (readonly) can read and search but not export: ask an administrator.' : undefined;

  return (
    <>
      <header className="inst-head">
        <button
          type="button"
          onClick={() => nav.getState().go({ view: 'resources', modelType })}
          title={`Back to the list of ${title.toLowerCase()}`}
        >
          ← Back to the list
        </button>
        <h1 className="view-title">
          {title}: {nameOf(instance)}
        </h1>
        <span className="spacer" />
        <div className="toolbar" role="toolbar" aria-label="Instance actions">
          <button
            type="button"
            className="primary"
            title={hint?.title}
            onClick={() => nav.getState().go({ view: 'form', modelType, href })}
          >
            Edit
          </button>
          <button type="button" className="danger" disabled={busy} title={hint?.title} onClick={() => setConfirming(true)}>
            Delete
          </button>
          <button
            type="button"
            disabled={busy || Boolean(exportWhy)}
            title={exportWhy ?? 'Download a spreadsheet that can be edited and loaded back'}
            onClick={() => void exportSheet()}
          >
            Export xlsx
          </button>
          <ExportButtons
            request={{ from: 'export', model_type: modelType, hierarchy: instance.meta.hierarchy, hrefs: [href] }}
            what={`this ${title.toLowerCase()}`}
            disabledWhy={exportWhy}
          />
          <button
            type="button"
            title="Download the instance as the service answers it (JSON)"
            onClick={exportJson}
            disabled={Boolean(exportWhy)}
          >
            Export JSON
          </button>
          <RoleNote hint={hint} />
        </div>
      </header>
      {confirming && (
        <div className="inst-confirm" role="alertdialog" aria-label="Confirm delete" data-live={live?.name}>
          <span>
            Delete <strong>{nameOf(instance)}</strong> ({title}, {instance.meta.hierarchy}){live ? ` on ${live.name}` : ''}? The delete runs
            as a transaction; its steps are shown next.
            {live && <LiveTarget live={live} />}
          </span>
          <button type="button" className="danger" autoFocus onClick={() => void remove()}>
            Delete
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      {actionFault && actionArea !== 'meta' && <FaultNotice fault={actionFault} />}
      <div className="inst-grid">
        <div className="card inst-data">
          <h2>Data</h2>
          <DataList data={instance.data} titles={titles} />
        </div>
        <MetaPanel
          meta={{ ...instance.meta, href }}
          warnings={warnings}
          why={hint?.title}
          fault={actionArea === 'meta' ? actionFault : undefined}
          busy={busy}
          onOpen={(reference) => nav.getState().go({ view: 'instance', modelType: modelTypeOfHref(reference.href), href: reference.href })}
          onAddTag={async (tag) => {
            await store.getState().addTag(tag);
            return !store.getState().actionFault;
          }}
          onRemoveTag={(tag) => void store.getState().removeTag(tag)}
          onVersionTag={(versionTag) => store.getState().setVersionTag(versionTag)}
        />
      </div>
    </>
  );
}
