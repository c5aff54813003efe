import { useEffect, useRef, useState, type DragEvent } from 'react';
import { picksFilesItself } from '../api/upload-file';
import { FaultNotice } from '../components/FaultNotice';
import { Empty, Loading } from '../components/States';
import { useKnownModels } from '../store/use-model-catalog';
import { useSlice, useStores } from '../store/stores';
import type { WorkbookSummary } from '../store/workbooks-store';
import { ViewFilePick } from './viewer/ViewFilePick';
import { WorkbookProfileNote } from './workbooks/ProfileNote';
import './workbooks/workbooks.css';

/**
 * The staged workbooks (README: Staged workbooks): the user's own and, for an admin, those of
 * users below. A new one comes from a file picked or dropped on the view (uploaded and staged at
 * the selected node), or from the bulk-load template of a model there. The list follows the
 * service's events: a workbook's state moves without a refresh.
 */
export function WorkbooksView() {
  const { workbooks } = useStores();
  const rows = useSlice('workbooks', (s) => s.rows);
  const listState = useSlice('workbooks', (s) => s.listState);
  const fault = useSlice('workbooks', (s) => s.fault);
  const busy = useSlice('workbooks', (s) => s.busy);
  const nodePath = useSlice('hierarchy', (s) => (s.selected ? s.nodes[s.selected]?.path : undefined));
  const homePath = useSlice('session', (s) => s.user?.hierarchy);
  const hierarchy = nodePath ?? homePath ?? 'sys';

  useEffect(() => {
    void workbooks.getState().load();
    return workbooks.getState().follow();
  }, [workbooks]);

  return (
    <section className="workbooks-view" aria-labelledby="workbooks-title">
      <h1 id="workbooks-title" className="view-title">
        Workbooks <span className="muted">opened at {hierarchy}</span>
      </h1>
      <WorkbookSources hierarchy={hierarchy} />
      {busy && (
        <p className="workbooks-busy" role="status">
          {busy}
        </p>
      )}
      {fault && <FaultNotice fault={fault} onRetry={() => void workbooks.getState().load()} />}
      {listState === 'loading' && <Loading what="the workbooks" />}
      {listState === 'ready' && rows.length === 0 && (
        <Empty title="No workbook yet">Open an .xlsx file, drop one here, or start from a template.</Empty>
      )}
      {rows.length > 0 && <WorkbookTable rows={rows} />}
    </section>
  );
}

/** Where a new workbook comes from: a file (picked or dropped) or a model's template. */
function WorkbookSources({ hierarchy }: { hierarchy: string }) {
  const { workbooks, client, nav } = useStores();
  /** A workbook made (a file opened, a template): its grid opens, or its mapping step, or its refusal. */
  const show = (made: WorkbookSummary | undefined): void => {
    if (made) nav.getState().go({ view: 'workbook', workbookId: made.id });
  };
  const models = useKnownModels();
  const [modelType, setModelType] = useState('relation/LineRelation');
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);

  const open = async (files: FileList | null): Promise<void> => {
    const file = files?.[0];
    if (!file) return;
    const made = await workbooks.getState().openFile(file.name, new Uint8Array(await file.arrayBuffer()), hierarchy);
    if (picker.current) picker.current.value = '';
    show(made);
  };
  const drop = (event: DragEvent<HTMLDivElement>): void => {
    event.preventDefault();
    setDragging(false);
    void open(event.dataTransfer.files);
  };

  return (
    <div
      className={`workbook-sources${dragging ? ' dragging' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
      aria-label="Open a workbook"
      role="group"
    >
      {/* In the desktop shell main's dialog picks and uploads the file; in a browser, the page's picker. */}
      {picksFilesItself(client) ? (
        <button type="button" className="primary" onClick={() => void workbooks.getState().pickFile(hierarchy).then(show)}>
          Open .xlsx file
        </button>
      ) : (
        <label className="file-pick">
          <span className="button-like primary">Open .xlsx file</span>
          <input
            ref={picker}
            type="file"
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            aria-label="Open .xlsx file"
            onChange={(event) => void open(event.target.files)}
          />
        </label>
      )}
      <span className="muted">or drop one here</span>
      <ViewFilePick hierarchy={hierarchy} />
      <span className="sources-gap" />
      <label>
        New from template{' '}
        <select aria-label="Template model" value={modelType} onChange={(event) => setModelType(event.target.value)}>
          {models.map((model) => (
            <option key={model.model_type} value={model.model_type}>
              {model.title}
            </option>
          ))}
          {models.length === 0 && <option value="relation/LineRelation">relation/LineRelation</option>}
        </select>
      </label>
      <button type="button" onClick={() => void workbooks.getState().fromTemplate(modelType, hierarchy).then(show)}>
        New
      </button>
    </div>
  );
}

/** The state as a person reads it: draft with its errors, loaded n/m, k failed... */
export function stateText(row: WorkbookSummary): string {
  const { counts, load } = row;
  switch (row.state) {
    case 'staging':
      return 'opening';
    case 'mapping':
      return 'columns to map';
    case 'validating':
      return 'checking';
    case 'draft':
      return `${counts.errors} error${counts.errors === 1 ? '' : 's'}`;
    case 'validated':
      return counts.warnings > 0 ? `ready, ${counts.warnings} warning${counts.warnings === 1 ? '' : 's'}` : 'ready';
    case 'planning':
      return 'planning';
    case 'planned':
      return 'planned';
    case 'loading':
      return load ? `loading ${load.loaded + load.failed + load.conflicts}/${load.total}` : 'loading';
    case 'loaded':
      return load ? `loaded ${load.loaded}/${load.total}` : 'loaded';
    case 'failed':
      return load ? `loaded ${load.loaded}/${load.total}, ${load.failed + load.conflicts} failed` : 'could not be opened';
  }
}

/** The question before a workbook is deleted: it names the workbook and what goes with it. */
export function deleteQuestion(row: Pick<WorkbookSummary, 'name' | 'counts'>): string {
  const rows = `${row.counts.rows.toLocaleString()} row${row.counts.rows === 1 ? '' : 's'}`;
  return `Delete the workbook ${row.name}, with its ${rows}?\n\nIts rows, its checks and its history (what Undo could bring back) go with it: this cannot be undone. The file it was opened from is not touched.`;
}

function WorkbookTable({ rows }: { rows: WorkbookSummary[] }) {
  const { workbooks, nav, confirm } = useStores();
  const remove = async (row: WorkbookSummary): Promise<void> => {
    if (await confirm.getState().ask(deleteQuestion(row), { label: 'Delete a workbook', action: 'Delete' }))
      await workbooks.getState().remove(row.id);
  };
  return (
    <table className="grid-table workbooks-table" aria-label="Workbooks">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">State</th>
          <th scope="col">Rows</th>
          <th scope="col">Node</th>
          <th scope="col">Owner</th>
          <th scope="col">Changed</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-workbook={row.id}>
            <td>
              <button
                type="button"
                className="link-like"
                disabled={row.state === 'staging' || (row.state === 'failed' && row.load === null)}
                onClick={() => nav.getState().go({ view: 'workbook', workbookId: row.id })}
              >
                {row.name}
              </button>
            </td>
            <td>
              <span className={`pill wb-${row.state}`}>{stateText(row)}</span>
              {/* A file that could not be opened says why, where it was opened: the reason says what to do. */}
              {row.state === 'mapping' && <p className="wb-problem">Its columns are not a template’s: open it to map them.</p>}
              {row.state === 'failed' && row.load === null && row.problem && (
                <p className="wb-problem" role="alert">
                  {row.problem}
                </p>
              )}
            </td>
            <td>{row.counts.rows.toLocaleString()}</td>
            <td>
              {row.hierarchy}
              <WorkbookProfileNote workbook={row} />
            </td>
            <td>{row.owner}</td>
            <td>{row.updated_at.replace('T', ' ').slice(0, 19)}</td>
            <td>
              {/* A profile's workbook is never loaded here (the service refuses it): its way out is a push. */}
              {row.profile !== null && (
                <>
                  <button
                    type="button"
                    aria-label={`Push ${row.name} from the Sync panel`}
                    title={`Pushed to ${row.profile} from the Sync panel, not loaded here`}
                    onClick={() => nav.getState().go({ view: 'sync', profile: row.profile ?? undefined })}
                  >
                    Sync
                  </button>{' '}
                </>
              )}
              <button
                type="button"
                aria-label={`Duplicate ${row.name}`}
                disabled={row.state === 'staging' || row.state === 'failed' || row.state === 'mapping'}
                onClick={() => void workbooks.getState().duplicate(row.id)}
              >
                Duplicate
              </button>{' '}
              <button
                type="button"
                className="danger"
                aria-label={`Delete ${row.name}`}
                disabled={row.state === 'loading'}
                onClick={() => void remove(row)}
              >
                Delete
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
