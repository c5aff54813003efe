import { throwIfProblem } from '../../domain/rules/problem';
import { passwordProblem } from '../../domain/rules/users';
import { insertInstance, labelOf, replaceInstance } from '../../domain/instance-ops';
import type { Workflow } from './types';

/**
 * Users are instances without their password: the route hashes a given password before the
 * transaction (scrypt is slow and asynchronous) and the hash goes to the credentials table.
 */
export const userWorkflow: Workflow = {
  create(ctx, { store, model, node, pkid, data, secrets }) {
    const hash = secrets.passwordHash;
    throwIfProblem(passwordProblem(hash));
    ctx.step(`Create user ${labelOf(model, data)} at ${node.path}`, () => {
      insertInstance(store, model, node, data, { pkid });
      store.credentials.set(pkid, hash, store.now());
    });
    return { resourcePkid: pkid, state: 'Created' };
  },
  modify(ctx, { store, model, node, existing, data, secrets }) {
    ctx.step(`Modify user ${labelOf(model, data)}`, () => {
      replaceInstance(store, existing, data, { node });
      if (secrets.passwordHash) store.credentials.set(existing.pkid, secrets.passwordHash, store.now());
    });
    return { resourcePkid: existing.pkid, state: 'Modified' };
  },
  remove(ctx, { store, model, existing }) {
    ctx.step(`Delete user ${labelOf(model, existing.data)}`, () => {
      store.instances.delete(existing.pkid);
      store.credentials.delete(existing.pkid);
    });
    return { resourcePkid: existing.pkid, state: 'Deleted' };
  },
};
