import { isJsonObject, type ApiResponse } from '../api-types';
import { resolveHierarchy } from '../domain/hierarchy';
import { submitBulkLoad } from '../bulkload/submit-bulk-load';
import { ApiError } from '../errors';
import { parseBoolean } from '../list/list-params';
import { jsonBody, type RequestContext } from '../request-context';
import { json } from '../responses';
import { readWorkbook } from '../sheets/read-workbook';
import type { UploadRow } from '../store/uploads-repo';
import type { RouteDeps } from './deps';
import { guardNode } from './guards';
import { transactionHref } from './transaction-answer';

/**
 * `POST /api/tool/BulkLoad/?method=bulkload_spreadsheet&hierarchy=...` with
 * `{"bulkload_file": "<name>", "execute_immediately": true}`. The whole-file checks (the file,
 * its headers, the caller's access) refuse the load with nothing loaded; after them every row
 * runs as its own sub-transaction. `nowait=true` answers 202 at once; otherwise the call waits
 * and answers the parent's outcome.
 */
export async function startBulkLoad(
  deps: RouteDeps,
  ctx: RequestContext,
  uploadNamed: (name: string) => UploadRow,
  fileName: string,
): Promise<ApiResponse> {
  const node = resolveHierarchy(deps.store.nodes, ctx.query.get('hierarchy'));
  guardNode(ctx, node, 'bulkload');
  const body = jsonBody(ctx);
  const immediately = isJsonObject(body) ? body.execute_immediately : undefined;
  if (immediately === false || immediately === 'false') {
    throw new ApiError(400, 'bad-parameter', 'Scheduled bulk loads (execute_immediately false) are not available yet: load now with execute_immediately true.', [
      { field: 'execute_immediately', message: 'must be true' },
    ]);
  }
  const upload = uploadNamed(fileName);
  const workbook = await readWorkbook(deps.store.uploads.pathOf(upload.id), upload.name);
  const submitted = submitBulkLoad(deps.engine, deps.store, ctx, workbook, node);
  const href = transactionHref(submitted.transactionId);
  if (parseBoolean(ctx.query, 'nowait', false)) return json(202, { href, success: true, transaction_id: submitted.transactionId });
  const outcome = await submitted.done;
  const parent = deps.store.transactions.get(submitted.transactionId);
  return json(200, {
    success: outcome.status !== 'Fail',
    pkid: null,
    model_type: 'tool/BulkLoad',
    transaction_id: submitted.transactionId,
    href,
    status: outcome.status,
    detail: parent?.detail ?? '',
    meta: { uri: href, parent_id: node.pkid, summary_attrs: {} },
  });
}
