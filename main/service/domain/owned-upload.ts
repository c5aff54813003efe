import { notFound } from '../errors';
import type { UploadRow } from '../store/uploads-repo';
import type { Caller } from './guards';
import { isWithin } from './hierarchy';
import type { Store } from './store';

/**
 * The caller's own newest upload of that name (decisions.md: an upload belongs to its sender, and
 * another user's file is never run, whatever its name). Files whose sender is unknown (stores
 * from before owners were kept) are left to admins at the root. The file's node must still be in
 * the caller's reach, in case the caller was moved since.
 */
export function ownedUpload(store: Store, caller: Caller, name: string): UploadRow {
  const rootAdmin = caller.principal.role === 'admin' && !caller.callerPath.includes('.');
  const upload = store.uploads.newestOwned(name, caller.principal.pkid, rootAdmin);
  const path = upload ? store.nodes.get(upload.hierarchy_pkid)?.path : undefined;
  if (!upload || path === undefined || !isWithin(path, caller.callerPath)) {
    throw notFound(`No uploaded file is named '${name}': upload it with POST /api/uploadfiles/ first, then give the same name.`);
  }
  return upload;
}
