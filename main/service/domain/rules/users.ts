import type { JsonObject } from '../../api-types';
import { grantRefusal } from '../../auth/access';
import type { Principal } from '../../auth/principal';
import type { NodeRow } from '../../store/nodes-repo';
import type { Caller } from '../guards';
import type { RuleProblem } from './problem';

/** The role a user's data gives: `readonly` when none is given. */
export const roleOf = (data: JsonObject): Principal['role'] =>
  (typeof data.role === 'string' ? data.role : 'readonly') as Principal['role'];

/** Nobody makes or raises a user above its own role or outside its subtree (decisions.md, Roles): 403. */
export function grantProblem(caller: Caller, data: JsonObject, node: NodeRow): RuleProblem | undefined {
  const refusal = grantRefusal(caller.principal, caller.callerPath, roleOf(data), node);
  if (!refusal) return undefined;
  return { field: 'role', code: 'permission-denied', message: refusal.message, httpCode: refusal.httpCode, apiCode: refusal.code };
}

/** A new user needs a password: `given` is the password, or its hash once taken out of the data. */
export function passwordProblem(given: unknown): RuleProblem | undefined {
  if (given !== undefined && given !== null && given !== '') return undefined;
  return { field: 'password', code: 'required', message: 'A new user needs a password.', httpCode: 400, apiCode: 'validation-failed' };
}
