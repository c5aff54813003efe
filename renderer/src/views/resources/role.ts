import { useSlice } from '../../store/stores';

/** What the UI tells a role that cannot change resources; admin (or no user yet) gets none. */
export interface RoleHint {
  role: string;
  /** The short note shown in a toolbar. */
  note: string;
  /** The longer explanation, kept as the title of every control that would change something. */
  title: string;
}

/** What each role may do (decisions.md: only admin creates, updates, deletes and tags). */
const ALLOWED: Record<string, string> = { operator: 'read, search and export', readonly: 'read and search' };

export function roleHint(role: string | undefined): RoleHint | undefined {
  if (role === undefined || role === 'admin') return undefined;
  const allowed = ALLOWED[role] ?? 'read';
  return {
    role,
    note: `${role}: ${allowed} only — changes will be refused`,
    title: `Your role (${role}) can ${allowed} but not change resources: the service will refuse with Permission Denied. Ask an administrator.`,
  };
}

/**
 * The signed-in role's hint. Write controls stay enabled for every role: the service is the real
 * check, and its Permission Denied (with what to do) says more than a greyed-out button.
 */
export function useRoleHint(): RoleHint | undefined {
  const role = useSlice('session', (s) => s.user?.role);
  return roleHint(role);
}
