import { useEffect, useState, type FormEvent } from 'react';
import { FaultNotice } from '../components/FaultNotice';
import { Empty, Loading } from '../components/States';
import { useSlice, useStores, type Stores } from '../store/stores';
import type { Submitted } from '../store/form-store';
import { ErrorSummary, focusField } from './form/ErrorSummary';
import { FormSections, groupOfPath } from './form/FormSections';
import { usesTabs } from './form/form-layout';
import { LayoutPicker } from './form/LayoutPicker';
import { TemplatePicker } from './form/TemplatePicker';
import { RoleNote } from './resources/RoleNote';
import { useRoleHint } from './resources/role';
import './form/form.css';

const NODE_MODEL = 'data/HierarchyNode';

/**
 * Add and edit forms, generated from the model's `add/` schema with the Field Display Policy the
 * service applied. Saving starts a transaction (`nowait=true`) and opens it so the user can
 * follow it live.
 */
export function FormView() {
  const stores = useStores();
  const place = useSlice('nav', (s) => s.place);
  const selected = useSlice('hierarchy', (s) => s.selected);
  const home = useSlice('session', (s) => s.user?.hierarchy_pkid);
  const status = useSlice('form', (s) => s.status);
  const fault = useSlice('form', (s) => s.fault);
  const target = useSlice('form', (s) => s.target);
  const node = selected ?? home;
  const { modelType, href } = place;
  // An edit reads its node from the instance; an add needs the selected node.
  const canLoad = Boolean(href || (modelType && node));

  useEffect(() => {
    if (canLoad) void stores.form.getState().load({ modelType: modelType ?? '', href, hierarchy: node ?? '' });
  }, [stores, canLoad, modelType, href, node]);

  if (!canLoad) return <Empty title="No model chosen.">Pick a model in the resources view, then Add.</Empty>;
  // Until this place's form has loaded, the store may still hold the previous form.
  const current = target?.href === href && (href !== undefined || target?.modelType === modelType);
  if (current && status === 'error' && fault) return <LoadFault />;
  if (!current || status !== 'ready') return <Loading what="the form" />;
  return <ReadyForm />;
}

function LoadFault() {
  const stores = useStores();
  const fault = useSlice('form', (s) => s.fault);
  const target = useSlice('form', (s) => s.target);
  if (!fault) return null;
  return (
    <div className="resource-form-page" data-testid="resource-form" data-form-state="error">
      <h1 className="view-title">{fault.status === 403 ? 'Permission Denied' : 'The form could not be opened'}</h1>
      <FaultNotice fault={fault} onRetry={fault.status === 403 || !target ? undefined : () => void stores.form.getState().load(target)} />
      <button type="button" onClick={() => stores.nav.getState().back()}>
        Back
      </button>
    </div>
  );
}

function ReadyForm() {
  const stores = useStores();
  const schema = useSlice('form', (s) => s.schema);
  const groups = useSlice('form', (s) => s.groups);
  const submitting = useSlice('form', (s) => s.submitting);
  const fault = useSlice('form', (s) => s.fault);
  const notice = useSlice('form', (s) => s.notice);
  const [chosenTab, setTab] = useState(0);
  const tabs = usesTabs(groups);
  // Another layout can have fewer groups than the tab last shown.
  const tab = Math.min(chosenTab, Math.max(groups.length - 1, 0));
  if (!schema) return null;

  const showField = (path: string): void => {
    const group = groupOfPath(groups, path);
    if (tabs && group) setTab(groups.indexOf(group));
    // The tab panel must be shown before its input can take the focus.
    setTimeout(() => focusField(path), 0);
  };
  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void save(stores, showField);
  };

  return (
    <form
      className="resource-form-page"
      data-testid="resource-form"
      data-form-state={submitting ? 'submitting' : 'ready'}
      noValidate
      onSubmit={onSubmit}
    >
      <FormHeader />
      <section className="form-shapers card" aria-label="Layout and template">
        <LayoutPicker />
        <TemplatePicker />
      </section>
      <ErrorSummary schema={schema} onShowField={showField} />
      {fault && fault.details.length === 0 && <FaultNotice fault={fault} />}
      {fault && fault.details.length > 0 && <p className="fault-advice">{fault.advice}</p>}
      {groups.length === 0 ? (
        <Empty title="This form has no fields to fill in." />
      ) : (
        <FormSections schema={schema} groups={groups} tabs={tabs} current={tab} onSelect={setTab} />
      )}
      <div className="form-actions">
        {notice && (
          <span className="form-notice" role="status">
            {notice}
          </span>
        )}
        <span className="spacer" />
        <button type="button" onClick={() => stores.nav.getState().back()}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={submitting}>
          {submitting ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}

function FormHeader() {
  const mode = useSlice('form', (s) => s.mode);
  const title = useSlice('form', (s) => s.title);
  const subject = useSlice('form', (s) => s.subject);
  const subjectHierarchy = useSlice('form', (s) => s.subjectHierarchy);
  const where = useSlice('form', (s) => s.target?.hierarchy);
  const path = useSlice('hierarchy', (s) => (where ? s.nodes[where]?.path : undefined));
  const hint = useRoleHint();
  return (
    <header className="form-header">
      <h1 className="view-title">
        {mode === 'edit' ? 'Edit' : 'Add'} {title}
        {subject && <span className="form-subject"> {subject}</span>}
      </h1>
      <p className="muted">
        {mode === 'add' ? <>At {path ?? where}. </> : subjectHierarchy && <>At {subjectHierarchy}. </>}
        Fields marked * are required. <RoleNote hint={hint} />
      </p>
    </header>
  );
}

/** Submits, then follows the transaction: the status line tracks it and the detail view opens. */
async function save(stores: Stores, showField: (path: string) => void): Promise<void> {
  const form = stores.form.getState();
  const started = await form.submit();
  if (!started) {
    const first = Object.keys(stores.form.getState().errors)[0];
    if (first) showField(first);
    return;
  }
  follow(stores, started);
}

function follow(stores: Stores, started: Submitted): void {
  const { mode, target } = stores.form.getState();
  const done = stores.status.getState().track(started.transactionId, started.label);
  // A new node must appear in the tree once it exists.
  if (mode === 'add' && target?.modelType === NODE_MODEL) {
    const parent = target.hierarchy;
    void done.then((final) => (final === 'Success' ? stores.hierarchy.getState().refreshChildren(parent) : undefined));
  }
  stores.nav.getState().go({ view: 'transaction', transactionId: started.transactionId });
}
