/** Search answers as the service writes them (decisions.md "Search"), for the search tests. */
export const SEARCH = '/api/tool/Search/';

export function hitOf(modelType: string, pkid: string, data: Record<string, unknown>, hierarchy = 'sys.hcs.Telco.Acme.Paris') {
  return { data, meta: { model_type: modelType, pkid, hierarchy, href: `/api/${modelType}/${pkid}/` } };
}

export function searchAnswer(resources: ReturnType<typeof hitOf>[], total = resources.length) {
  return {
    pagination: { skip: 0, limit: 1000, total, maximum_limit: 1000 },
    meta: { actions: { export: { href: '/api/export/export_data/?url=/api/tool/Search/', method: 'POST' } } },
    resources,
  };
}
