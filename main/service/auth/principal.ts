import type { Store } from '../domain/store';

/** The authenticated caller of one request. */
export interface Principal {
  pkid: string;
  username: string;
  role: 'admin' | 'operator' | 'readonly';
  hierarchyPkid: string;
}

/** A stored user as a principal now (its current role and node), or undefined when it is gone. */
export function principalOfUser(store: Store, userPkid: string): Principal | undefined {
  const user = store.instances.get(userPkid);
  if (!user || user.modelType !== 'data/User') return undefined;
  return {
    pkid: user.pkid,
    username: String(user.data.username),
    role: (user.data.role as Principal['role'] | undefined) ?? 'readonly',
    hierarchyPkid: user.hierarchyPkid,
  };
}
