import type { Store } from './domain/store';
import { hashPassword, randomPassword } from './auth/passwords';
import { businessKeyOf } from './domain/business-key';
import { requireModel } from './models/registry';
import { newPkid } from './store/ids';

/**
 * An empty store gets its root node `sys` and the user `admin` at `sys`. The admin password is
 * WORKSTATION_ADMIN_PASSWORD when set, else a random one returned so the caller can show it once.
 */
export async function bootstrapStore(store: Store, adminPassword: string | undefined): Promise<{ generatedPassword?: string }> {
  const nodeModel = requireModel('data/HierarchyNode');
  let root = store.nodes.root();
  if (!root) {
    const pkid = newPkid();
    const data = { name: 'sys', node_type: 'Root', description: 'The root of the hierarchy' };
    store.db.transaction(() => {
      store.nodes.insert({ pkid, parent_pkid: null, name: 'sys', path: 'sys', node_type: 'Root' });
      store.instances.insert({
        pkid,
        modelType: nodeModel.modelType,
        hierarchyPkid: pkid,
        data,
        bkey: businessKeyOf(nodeModel, data, pkid),
      });
    })();
    root = store.nodes.root();
  }
  const hasUsers = store.instances.hasAny('data/User');
  if (hasUsers || !root) return {};
  const password = adminPassword || randomPassword();
  const hash = await hashPassword(password);
  const userModel = requireModel('data/User');
  const pkid = newPkid();
  const data = { username: 'admin', role: 'admin', email: '' };
  store.db.transaction(() => {
    store.instances.insert({
      pkid,
      modelType: userModel.modelType,
      hierarchyPkid: root.pkid,
      data,
      bkey: businessKeyOf(userModel, data, root.pkid),
    });
    store.credentials.set(pkid, hash, store.now());
  })();
  return adminPassword ? {} : { generatedPassword: password };
}
