import { isJsonObject, type ApiResponse } from '../api-types';
import { resolveHierarchy } from '../domain/hierarchy';
import { ApiError } from '../errors';
import { parseBoolean } from '../list/list-params';
import { jsonBody, type RequestContext } from '../request-context';
import { json } from '../responses';
import type { UploadRow } from '../store/uploads-repo';
import type { RouteDeps } from './deps';
import { guardNode } from '../domain/guards';
import { transactionHref } from './transaction-answer';

/**
 * `POST /api/tool/BulkLoad/?method=bulkload_spreadsheet&hierarchy=...` with
 * `{"bulkload_file": "<name>", "execute_immediately": true}`. A worker reads the workbook (the
 * whole-file checks, the file and its headers, refuse the load with nothing loaded); after
 * them every row runs as its own sub-transaction, in batches. `nowait=true` answers 202 at once; otherwise the call waits
 * and answers the parent's outcome.
 */
const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** `execute_date` YYYY-MM-DD, `execute_time` HH:MM:SS, `execute_timezone` minutes from UTC. */
function scheduledMoment(fields: Record<string, unknown>): Date {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text(fields.execute_date));
  const time = /^(\d{2}):(\d{2}):(\d{2})$/.exec(text(fields.execute_time));
  const zone = /^[+-]?\d{1,4}$/.test(text(fields.execute_timezone)) ? Number(text(fields.execute_timezone)) : NaN;
  const problems = [
    !date ? { field: 'execute_date', message: 'must be YYYY-MM-DD' } : undefined,
    !time ? { field: 'execute_time', message: 'must be HH:MM:SS' } : undefined,
    Number.isNaN(zone) || Math.abs(zone) > 14 * 60
      ? { field: 'execute_timezone', message: 'must be minutes from UTC, e.g. 60 or -300' }
      : undefined,
  ].filter((problem): problem is { field: string; message: string } => problem !== undefined);
  if (!date || !time || problems.length > 0) {
    throw new ApiError(
      400,
      'validation-failed',
      'A scheduled load (execute_immediately false) needs execute_date, execute_time and execute_timezone.',
      problems,
    );
  }
  const local = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]), Number(time[1]), Number(time[2]), Number(time[3]));
  const moment = new Date(local - zone * 60_000);
  if (Number.isNaN(moment.getTime()) || moment.toISOString().slice(0, 10) === 'Invalid Date') {
    throw new ApiError(400, 'validation-failed', 'execute_date and execute_time do not name a real moment.', [
      { field: 'execute_date', message: 'not a date' },
    ]);
  }
  return moment;
}

export async function startBulkLoad(
  deps: RouteDeps,
  ctx: RequestContext,
  uploadNamed: (name: string) => UploadRow,
  fileName: string,
): Promise<ApiResponse> {
  const node = resolveHierarchy(deps.store.nodes, ctx.query.get('hierarchy'));
  guardNode(ctx, node, 'bulkload');
  const body = jsonBody(ctx);
  const fields = isJsonObject(body) ? body : {};
  const immediately = fields.execute_immediately !== false && fields.execute_immediately !== 'false';
  const runAt = immediately ? undefined : scheduledMoment(fields);
  const upload = uploadNamed(fileName);
  // Read now even when scheduled: a bad file or header is refused at once, not at 3 a.m.
  const load = await deps.loads.read(ctx, upload, node, deps.store.uploads.pathOf(upload.id));
  if (runAt) {
    const transactionId = deps.scheduler.schedule(ctx, load, node, runAt);
    return json(202, {
      href: transactionHref(transactionId),
      success: true,
      transaction_id: transactionId,
      execute_at: runAt.toISOString(),
    });
  }
  const submitted = deps.loads.start(ctx, load, node);
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
