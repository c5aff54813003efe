import { listOf } from './fake-transport';

export const PARIS = 'p'.repeat(24);
export const LINES = '/api/relation/LineRelation/';

const SUMMARY = [
  { name: 'pattern', title: 'Directory Number' },
  { name: 'alertingName', title: 'Alerting Name' },
];

export function lineInstance(i: number) {
  const pkid = `l${String(i).padStart(23, '0')}`;
  return {
    data: { pattern: `+3314000${String(i).padStart(4, '0')}`, alertingName: `User ${i}` },
    meta: {
      model_type: 'relation/LineRelation',
      pkid,
      hierarchy: 'sys.Acme.Paris',
      href: `${LINES}${pkid}/`,
      tags: i === 0 ? ['vip'] : [],
    },
  };
}

/** A LineRelation list answer the way the service pages it: `total` lines, the page at `skip`. */
export function linePage(total: number, skip: number, limit: number, supportAsyncDelete = true) {
  const count = Math.max(0, Math.min(limit, total - skip));
  const answer = listOf(
    Array.from({ length: count }, (_, i) => lineInstance(skip + i)),
    total,
    skip,
  );
  return {
    ...answer,
    pagination: { ...answer.pagination, limit, order_by: 'pattern' },
    meta: {
      model_type: 'relation/LineRelation',
      summary_attrs: SUMMARY,
      actions: { delete: { title: 'Delete', method: 'DELETE', href: LINES, class: 'delete', support_async: supportAsyncDelete } },
    },
  };
}

/** Paging as the service does it, read from the call's own query. */
export function pagedLines(total: number) {
  return (call: { url: string }) => {
    const query = new URLSearchParams(call.url.split('?')[1]);
    return { body: linePage(total, Number(query.get('skip') ?? 0), Number(query.get('limit') ?? 50)) };
  };
}
