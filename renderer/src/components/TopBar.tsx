import { useState } from 'react';
import { useSlice, useStores } from '../store/stores';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';

/** Workspace, the signed-in user and role, the search box and the main views. */
export function TopBar() {
  const { nav, session } = useStores();
  const user = useSlice('session', (s) => s.user);
  const canSignOut = useSlice('session', (s) => s.canSignOut);
  const view = useSlice('nav', (s) => s.place.view);
  const [query, setQuery] = useState('');
  // A detail view lights its list's tab: a transaction its list, a profile's Sync panel Settings.
  const within = (name: string): boolean =>
    view === name || (name === 'transactions' && view === 'transaction') || (name === 'settings' && view === 'sync');
  const tab = (name: 'resources' | 'workbooks' | 'transactions' | 'search' | 'settings' | 'help', label: string) => (
    <button
      type="button"
      className={`tab${within(name) ? ' current' : ''}`}
      onClick={() => nav.getState().go({ ...nav.getState().place, view: name })}
    >
      {label}
    </button>
  );
  return (
    <header className="top-bar">
      <span className="brand">Provisioning Workstation</span>
      <WorkspaceSwitcher />
      <nav className="tabs" aria-label="Views">
        {tab('resources', 'Resources')}
        {/* Staged workbooks need the bulk load role: admins only (decisions.md, roles). */}
        {user?.role === 'admin' && tab('workbooks', 'Workbooks')}
        {tab('transactions', 'Transactions')}
        {tab('search', 'Search')}
        {user?.role === 'admin' && tab('settings', 'Settings')}
        {tab('help', 'Help')}
      </nav>
      <form
        className="top-search"
        role="search"
        // Each search landmark has its own name: this one, Search resources (the Search view), Find in the export, Find and replace.
        aria-label="Search everywhere"
        onSubmit={(event) => {
          event.preventDefault();
          if (query.trim()) nav.getState().go({ view: 'search', query: query.trim() });
        }}
      >
        <input
          type="search"
          aria-label="Search"
          placeholder="Search: relation/LineRelation with pattern startswith +33…"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </form>
      <span className="user" data-testid="signed-in-user">
        {user ? (
          <>
            {user.username} <span className={`role role-${user.role}`}>{user.role}</span> <span className="muted">at {user.hierarchy}</span>
          </>
        ) : null}
      </span>
      {canSignOut && (
        <button type="button" onClick={() => void session.getState().signOut()}>
          Sign out
        </button>
      )}
    </header>
  );
}
