/** Transactions as the service answers them, for the transactions store and view tests. */
const LIST = '/api/tool/Transaction/';

export function txSummary(id: string, status: string, extra: Record<string, unknown> = {}) {
  return {
    transaction_id: id,
    action: 'Create',
    status,
    detail: `relation/LineRelation ${id}`,
    model_type: 'relation/LineRelation',
    username: 'admin',
    submitted_time: '2026-11-21T08:44:05.294000',
    ...extra,
  };
}

export function txList(rows: ReturnType<typeof txSummary>[], total = rows.length) {
  return {
    pagination: { skip: 0, limit: 50, total, maximum_limit: 2000, order_by: 'submitted_time', direction: 'desc' },
    meta: { model_type: 'tool/Transaction', summary_attrs: [], actions: {} },
    resources: rows.map((data) => ({
      data,
      meta: { model_type: 'tool/Transaction', pkid: data.transaction_id, hierarchy: 'sys', href: `${LIST}${data.transaction_id}/` },
    })),
  };
}

export function txDetail(
  id: string,
  status: string,
  log: { id: number; severity: string; message: string }[],
  extra: Record<string, unknown> = {},
) {
  return {
    data: {
      ...txSummary(id, status),
      rolled_back: 'No',
      message: '',
      started_time: '2026-11-21T08:44:05.294000',
      completed_time: status === 'Success' || status === 'Fail' ? '2026-11-21T08:44:05.300000' : null,
      parent_id: null,
      resource: { hierarchy: 'sys.Acme.Paris', model_type: 'relation/LineRelation', pkid: 'a'.repeat(24), current_state: '' },
      // The service lists the log newest first.
      log: [...log].reverse().map((entry) => ({
        severity: entry.severity,
        format: 'text',
        log_id: String(entry.id),
        time: `2026-11-21T08:44:05.${String(entry.id).padStart(3, '0')}000`,
        message: entry.message,
      })),
      sub_transactions: [],
      sub_transaction_counts: { total: Array.isArray(extra.sub_transactions) ? extra.sub_transactions.length : 0 },
      ...extra,
    },
    meta: { model_type: 'tool/Transaction', pkid: id, hierarchy: 'sys', href: `${LIST}${id}/` },
  };
}
