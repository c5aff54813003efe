const HELP_PAGES = [
  ['Hierarchy nodes', '/api/data/HierarchyNode/help/'],
  ['Line relations', '/api/relation/LineRelation/help/'],
  ['Subscribers', '/api/relation/Subscriber/help/'],
  ['Number inventory', '/api/data/InternalNumberInventory/help/'],
  ['Transactions', '/api/tool/Transaction/help/'],
] as const;

/**
 * The first screen while the workstation's views are being built: it says what runs and where
 * the API's own help pages are, so a new user is never left on a blank window.
 */
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', margin: '3rem auto', maxWidth: '44rem', lineHeight: 1.5 }}>
      <h1>Provisioning Workstation</h1>
      <p>
        The resource API runs on this machine, on its embedded store, at <code>/api/</code> (Basic authentication; user{' '}
        <code>admin</code>). The hierarchy, resource, transaction and search views arrive in the next versions.
      </p>
      <h2>Model help</h2>
      <ul>
        {HELP_PAGES.map(([title, href]) => (
          <li key={href}>
            <a href={href}>{title}</a>
          </li>
        ))}
      </ul>
    </main>
  );
}
