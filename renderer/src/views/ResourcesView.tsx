import { useEffect, useMemo } from 'react';
import { titleOf, type CatalogModel } from '../store/catalog-store';
import { FaultNotice } from '../components/FaultNotice';
import { Empty, Loading } from '../components/States';
import type { ListQuery, ResourcesState, Traversal } from '../store/resources-store';
import type { TreeNode } from '../store/hierarchy-store';
import { useSlice, useStores } from '../store/stores';
import { useModelCatalog } from '../store/use-model-catalog';
import { FilterBar } from './resources/FilterBar';
import { useLiveWorkspace } from '../components/live-workspace';
import { ListActions } from './resources/ListActions';
import { exportOf } from './resources/list-export';
import { ExportButtons } from './viewer/ExportButtons';
import { ModelPicker, TraversalToggle } from './resources/ListControls';
import { Pager } from './resources/Pager';
import { ResourceTable, type ResourceColumn } from './resources/ResourceTable';
import { useRoleHint, type RoleHint } from './resources/role';
import './resources/resources.css';

/**
 * The instances of one model at the selected node: server-side paging, order and filters, a
 * virtual grid for big pages, and delete and tag on the checked rows.
 */
export function ResourcesView() {
  const stores = useStores();
  const { nav, resources } = stores;
  const node = useSlice('hierarchy', (s) => (s.selected ? s.nodes[s.selected] : undefined));
  const rootFault = useSlice('hierarchy', (s) => s.rootFault);
  const placeModel = useSlice('nav', (s) => s.place.modelType);
  const catalog = useModelCatalog(node?.pkid);
  const offered = useMemo<CatalogModel[]>(() => (catalog?.state === 'ready' ? catalog.models : []), [catalog]);
  const modelType = placeModel && offered.some((m) => m.model_type === placeModel) ? placeModel : offered[0]?.model_type;
  useListFollowsPlace(node, modelType);

  // The tree's own panel says why its root could not be read; here, no endless spinner.
  if (!node && rootFault)
    return <Empty title="No hierarchy to show">The tree could not be opened: the panel on the left says why and what to do.</Empty>;
  if (!node) return <Loading what="the hierarchy" />;
  if (catalog?.state === 'error')
    return (
      <section className="resources" aria-label="Resources">
        <Empty title={`The models ${node.name} can hold could not be read`}>
          <FaultNotice fault={catalog.fault} onRetry={() => void stores.catalog.getState().load(node.pkid, true)} />
        </Empty>
      </section>
    );
  if (!modelType) return <Loading what={catalog?.state === 'ready' ? 'the models' : `the models ${node.name} can hold`} />;
  return (
    <section className="resources" aria-label="Resources">
      <header className="res-head">
        <h1 className="view-title">
          {titleOf(offered, modelType)} <span className="muted">at {node.name}</span>
        </h1>
        <span className="spacer" />
        <ModelPicker models={offered} value={modelType} onChange={(next) => nav.getState().go({ view: 'resources', modelType: next })} />
      </header>
      <ListBody
        node={node}
        modelType={modelType}
        title={titleOf(offered, modelType)}
        onTraversal={(t) => void resources.getState().setTraversal(t)}
      />
    </section>
  );
}

/** Keeps the list on the place's model and the tree's node, and fresh after a transaction ends. */
function useListFollowsPlace(node: TreeNode | undefined, modelType: string | undefined): void {
  const { nav, resources, status } = useStores();
  const placeModel = useSlice('nav', (s) => s.place.modelType);
  useEffect(() => {
    // A model this node cannot hold is replaced in place, without a history entry.
    if (modelType && placeModel !== modelType) nav.setState({ place: { ...nav.getState().place, modelType } });
  }, [modelType, placeModel, nav]);
  const pkid = node?.pkid;
  useEffect(() => {
    if (pkid && modelType) void resources.getState().show(modelType, pkid);
  }, [pkid, modelType, resources]);
  useEffect(
    () =>
      status.subscribe((state, previous) => {
        // A delete from this view reloads by itself when its transaction ends.
        if (state.lastFinished !== previous.lastFinished && !resources.getState().busy) void resources.getState().reload();
      }),
    [status, resources],
  );
}

interface ListBodyProps {
  node: TreeNode;
  modelType: string;
  /** The model's title from the service's catalog. */
  title: string;
  onTraversal: (traversal: Traversal) => void;
}

function ListBody({ node, modelType, title, onTraversal }: ListBodyProps) {
  const { nav, resources, status } = useStores();
  const state = useSlice('resources', (s) => s);
  const hint = useRoleHint();
  const live = useLiveWorkspace();
  const { query, answer, listState } = state;
  const titles = state.formTitles[modelType];
  const columns = useMemo<ResourceColumn[]>(
    () => (answer?.meta.summary_attrs ?? []).map((a) => ({ name: a.name, title: titles?.[a.name] ?? a.title })),
    [answer, titles],
  );
  const current = query && query.modelType === modelType && query.hierarchy === node.pkid ? query : undefined;
  const add = (): void => nav.getState().go({ view: 'form', modelType });

  return (
    <>
      <div className="res-bar">
        <TraversalToggle value={current?.traversal ?? 'down'} onChange={onTraversal} />
        {columns.length > 0 && current && (
          <FilterBar
            key={`${modelType}|${node.pkid}`}
            fields={columns}
            applied={current.filters}
            onApply={(f) => void resources.getState().setFilters(f)}
          />
        )}
      </div>
      <ListActions
        modelTitle={title}
        selected={state.selection.hrefs.size}
        busy={state.busy}
        hint={hint}
        onAdd={add}
        onRefresh={() => void resources.getState().reload()}
        live={live}
        extra={<ExportButtons {...exportOf(node, modelType, title, state.selection.hrefs, current)} />}
        onDelete={(approvedFor) => void resources.getState().deleteSelected((id, label) => status.getState().track(id, label), approvedFor)}
        onTag={async (tag) => {
          const outcome = await resources.getState().tagSelected(tag);
          void resources.getState().reload();
          return outcome;
        }}
      />
      {state.actionFault && <FaultNotice fault={state.actionFault} />}
      <ListArea node={node} modelType={modelType} title={title} columns={columns} current={current} hint={hint} onAdd={add} />
      {answer && current && <ListPager answer={answer} limit={current.limit} disabled={listState === 'loading'} />}
    </>
  );
}

function ListPager({ answer, limit, disabled }: { answer: NonNullable<ResourcesState['answer']>; limit: number; disabled: boolean }) {
  const { resources } = useStores();
  const { skip, total } = answer.pagination;
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <Pager
      page={Math.floor(skip / limit) + 1}
      pages={pages}
      skip={skip}
      shown={answer.resources.length}
      total={total}
      limit={limit}
      disabled={disabled}
      onPage={(page) => void resources.getState().goToPage(page)}
      onPageSize={(size) => void resources.getState().setPageSize(size)}
    />
  );
}

interface ListAreaProps {
  node: TreeNode;
  modelType: string;
  title: string;
  columns: ResourceColumn[];
  current?: ListQuery;
  hint?: RoleHint;
  onAdd(): void;
}

/** The list in its four states: loading, a fault, empty (naming node and model), the grid. */
function ListArea({ node, modelType, title, columns, current, hint, onAdd }: ListAreaProps) {
  const { nav, resources } = useStores();
  const listState = useSlice('resources', (s) => s.listState);
  const answer = useSlice('resources', (s) => s.answer);
  const fault = useSlice('resources', (s) => s.fault);
  const selection = useSlice('resources', (s) => s.selection);
  return (
    <div
      className="res-table"
      data-testid="resource-table"
      data-list-state={listState === 'idle' ? 'loading' : listState}
      aria-busy={listState === 'loading'}
    >
      {listState === 'error' && fault && <FaultNotice fault={fault} onRetry={() => void resources.getState().reload()} />}
      {listState === 'empty' && (
        <Empty
          title={`No ${title.toLowerCase()} at ${node.name}${current && current.filters.some((f) => f.text.trim()) ? ' match the filter' : ''}.`}
        >
          <p className="muted">
            {title} ({modelType}) looked up{' '}
            {current?.traversal === 'local'
              ? 'at this node only'
              : current?.traversal === 'up'
                ? 'at this node and above'
                : 'at this node and below'}
            .
          </p>
          <button type="button" className="primary" title={hint?.title} onClick={onAdd}>
            Add {title.toLowerCase()}
          </button>
        </Empty>
      )}
      {(listState === 'loading' || listState === 'idle') && !answer && <Loading what={title.toLowerCase()} />}
      {answer && current && (listState === 'ready' || listState === 'loading') && (
        <ResourceTable
          answer={answer}
          query={current}
          columns={columns}
          modelTitle={title}
          selection={selection}
          onSort={(field) => void resources.getState().sortBy(field)}
          onToggle={(index, range) => resources.getState().toggle(index, range)}
          onTogglePage={(all) => resources.getState().selectPage(all)}
          onOpen={(href) => nav.getState().go({ view: 'instance', modelType, href })}
        />
      )}
    </div>
  );
}
