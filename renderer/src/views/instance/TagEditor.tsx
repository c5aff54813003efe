import { useState } from 'react';

interface TagEditorProps {
  tags: string[];
  /** Why a change may be refused (a role hint), as the controls' title; they stay enabled. */
  why?: string;
  busy: boolean;
  /** Resolves true when the tag was stored; a refused tag stays in the field to correct or drop. */
  onAdd(tag: string): Promise<boolean>;
  onRemove(tag: string): void;
}

/** Tags as chips, each with a × that clears it, and a small field to add one. */
export function TagEditor({ tags, why, busy, onAdd, onRemove }: TagEditorProps) {
  const [text, setText] = useState('');
  return (
    <div className="inst-tags">
      <ul className="inst-chips" aria-label="Tags">
        {tags.length === 0 && <li className="muted">No tags</li>}
        {tags.map((tag) => (
          <li key={tag} className="inst-chip">
            {tag}
            <button
              type="button"
              aria-label={`Remove tag ${tag}`}
              title={why ?? `Remove tag ${tag}`}
              disabled={busy}
              onClick={() => onRemove(tag)}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <form
        className="inst-inline"
        onSubmit={(event) => {
          event.preventDefault();
          if (text.trim() === '') return;
          void onAdd(text.trim()).then((stored) => {
            if (stored) setText('');
          });
        }}
      >
        <input aria-label="New tag" placeholder="new tag" value={text} title={why} onChange={(event) => setText(event.target.value)} />
        <button type="submit" disabled={busy || text.trim() === ''} title={why}>
          Add tag
        </button>
      </form>
    </div>
  );
}

interface VersionTagProps {
  value?: string | null;
  why?: string;
  busy: boolean;
  onSet(versionTag: string): Promise<void>;
}

/** The version tag, set with `+tag_version/`. */
export function VersionTagEditor({ value, why, busy, onSet }: VersionTagProps) {
  const [text, setText] = useState(value ?? '');
  const unchanged = text.trim() === (value ?? '');
  return (
    <form
      className="inst-inline"
      onSubmit={(event) => {
        event.preventDefault();
        if (!unchanged) void onSet(text.trim());
      }}
    >
      <input
        aria-label="Version tag"
        placeholder="e.g. 1.0"
        value={text}
        title={why}
        size={10}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" disabled={busy || unchanged || text.trim() === ''} title={why}>
        Set
      </button>
      {!value && <span className="muted">not set</span>}
    </form>
  );
}
