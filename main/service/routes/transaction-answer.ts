import type { ApiResponse, JsonObject } from '../api-types';
import type { AsyncAnswer } from '../contract/resource-api';
import type { TransactionAnswer } from '../contract/transaction-api';
import type { ModelDef } from '../models/types';
import { parseBoolean } from '../list/list-params';
import type { InstanceRecord } from '../store/instances-repo';
import type { Submitted } from '../transactions/engine';
import type { RequestContext } from '../request-context';
import { faultResponse, json } from '../responses';
import type { RouteDeps } from './deps';
import { instanceHref } from '../domain/resource-view';

export const transactionHref = (transactionId: string): string => `/api/tool/Transaction/${transactionId}/`;

/**
 * `nowait=true` (where the action supports it) answers 202 with the transaction reference at
 * once; otherwise the call waits and answers with the outcome or the fault.
 */
export async function answerTransaction(
  deps: RouteDeps,
  ctx: RequestContext,
  model: ModelDef,
  submitted: Submitted,
  actionName: string,
  /** The instance as it was, for a delete's answer: afterwards it is gone. */
  before?: InstanceRecord,
): Promise<ApiResponse> {
  const supportsAsync = model.actions.some((action) => action.name === actionName && action.supportAsync);
  const href = transactionHref(submitted.transactionId);
  if (supportsAsync && parseBoolean(ctx.query, 'nowait', false)) {
    return json(202, { href, success: true, transaction_id: submitted.transactionId } satisfies AsyncAnswer);
  }
  const outcome = await submitted.done;
  if (outcome.error) return faultResponse(outcome.error, outcome.transactionId);
  const pkid = outcome.resourcePkid;
  const record = (pkid ? deps.store.instances.get(pkid) : undefined) ?? before;
  const summary: JsonObject = {};
  if (record) for (const name of model.summaryAttrs) if (record.data[name] !== undefined) summary[name] = record.data[name];
  return json(200, {
    success: true,
    pkid,
    model_type: model.modelType,
    transaction_id: outcome.transactionId,
    href: pkid ? instanceHref(model.modelType, pkid) : href,
    meta: { uri: href, parent_id: record?.hierarchyPkid ?? null, summary_attrs: summary },
  } satisfies TransactionAnswer);
}
