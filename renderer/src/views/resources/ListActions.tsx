import { useState, type ReactNode } from 'react';
import type { LiveWorkspace } from '../../api/api-client';
import { LiveTarget } from '../../components/live-workspace';
import type { TagOutcome } from '../../store/resources-store';
import type { RoleHint } from './role';
import { RoleNote } from './RoleNote';

interface ListActionsProps {
  modelTitle: string;
  selected: number;
  busy: boolean;
  /** For a role that cannot change resources: the controls stay, with a note and a title. */
  hint?: RoleHint;
  /** The live deployment, named in the delete dialog; its confirmation is the only one asked. */
  live?: LiveWorkspace;
  onAdd(): void;
  /** `approvedFor`: the live deployment the dialog named when the user confirmed. */
  onDelete(approvedFor?: string): void;
  onTag(tag: string): Promise<TagOutcome>;
  onRefresh(): void;
  /** More controls for the list or its checked rows, after Tag (the export viewer's View and Edit as workbook). */
  extra?: ReactNode;
}

type Mode = { kind: 'idle' } | { kind: 'confirm-delete' } | { kind: 'tag' } | { kind: 'tagged'; outcome: TagOutcome };

/** Add, and what can be done to the checked rows: delete (confirmed first) and tag (typed inline). */
export function ListActions(props: ListActionsProps) {
  const { selected, busy, hint, live } = props;
  const [mode, setMode] = useState<Mode>({ kind: 'idle' });
  const [tag, setTag] = useState('');
  const none = selected === 0;
  const denied = hint?.title;
  return (
    <div className="res-actions">
      <div className="toolbar">
        <button type="button" className="primary" title={denied ?? `Add a new instance of ${props.modelTitle}`} onClick={props.onAdd}>
          Add
        </button>
        <span className="res-sep" />
        <span className="muted" aria-live="polite">
          {none ? 'No rows selected' : `${selected} selected`}
        </span>
        <button
          type="button"
          className="danger"
          disabled={none || busy}
          title={none ? 'Check rows to delete them' : denied}
          onClick={() => setMode({ kind: 'confirm-delete' })}
        >
          Delete selected
        </button>
        <button
          type="button"
          disabled={none || busy}
          title={none ? 'Check rows to tag them' : denied}
          onClick={() => setMode({ kind: 'tag' })}
        >
          Tag selected
        </button>
        {props.extra}
        <span className="spacer" />
        <RoleNote hint={hint} />
        <button type="button" onClick={props.onRefresh} disabled={busy} title="Read the list again">
          ↻ Refresh
        </button>
      </div>
      {mode.kind === 'confirm-delete' && !none && (
        <div className="res-inline danger-zone" role="alertdialog" aria-label="Confirm delete" data-live={live?.name}>
          <span>
            Delete {selected} selected {selected === 1 ? 'row' : 'rows'} ({props.modelTitle}){live ? ` on ${live.name}` : ''}? This runs as
            one transaction; a row that fails does not undo the others.
            {live && <LiveTarget live={live} />}
          </span>
          <button
            type="button"
            className="danger"
            autoFocus
            onClick={() => {
              setMode({ kind: 'idle' });
              props.onDelete(live?.name);
            }}
          >
            Delete {selected}
          </button>
          <button type="button" onClick={() => setMode({ kind: 'idle' })}>
            Cancel
          </button>
        </div>
      )}
      {mode.kind === 'tag' && (
        <form
          className="res-inline"
          aria-label="Tag selected"
          onSubmit={(event) => {
            event.preventDefault();
            if (tag.trim() === '') return;
            void props.onTag(tag.trim()).then((outcome) => setMode({ kind: 'tagged', outcome }));
          }}
        >
          <label>
            Tag for {selected} {selected === 1 ? 'row' : 'rows'}{' '}
            <input autoFocus value={tag} onChange={(event) => setTag(event.target.value)} placeholder="e.g. migrated" />
          </label>
          <button type="submit" className="primary" disabled={busy || tag.trim() === ''}>
            {busy ? 'Tagging…' : 'Apply tag'}
          </button>
          <button type="button" onClick={() => setMode({ kind: 'idle' })}>
            Cancel
          </button>
          {/[A-Z]/.test(tag) && <span className="res-hint">Tags with capitals are stored but search will not find them.</span>}
        </form>
      )}
      {mode.kind === 'tagged' && (
        <div className="res-inline" role="status">
          <span>
            Tagged {mode.outcome.tagged} {mode.outcome.tagged === 1 ? 'row' : 'rows'}
            {mode.outcome.faults.length > 0 ? `; ${mode.outcome.faults.length} failed (see below)` : ''}.
          </span>
          {mode.outcome.warnings.map((warning) => (
            <span key={warning} className="res-warning">
              {warning}
            </span>
          ))}
          <button type="button" onClick={() => setMode({ kind: 'idle' })}>
            OK
          </button>
        </div>
      )}
    </div>
  );
}
