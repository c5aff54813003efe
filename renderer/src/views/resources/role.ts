import { useSlice } from '../../store/stores';

/**
 * Whether the signed-in role may change resources (decisions.md: only admin creates, updates,
 * deletes and tags). The UI only hides what would fail; the service is the real check.
 */
export function useWriteAccess(): { canWrite: boolean; why?: string } {
  const role = useSlice('session', (s) => s.user?.role);
  if (role === undefined || role === 'admin') return { canWrite: true };
  return { canWrite: false, why: `Your role (${role}) can read${role === 'operator' ? ', search and export' : ' and search'} but not change resources: ask an administrator.` };
}
