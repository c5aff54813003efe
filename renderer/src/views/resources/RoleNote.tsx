import type { RoleHint } from './role';
import './role-note.css';

/** A small, always visible note that this role's changes will be refused by the service. */
export function RoleNote({ hint }: { hint: RoleHint | undefined }) {
  if (!hint) return null;
  return (
    <span className="pill role-note" data-testid="role-note" title={hint.title}>
      {hint.note}
    </span>
  );
}
