/**
 * The list request of the bench, in one place so the HTTP scenario and the raw-SQL baseline run
 * exactly the same query: a startswith filter on the directory number, ordered, 50 per page,
 * with its total (count defaults to true), over the customer's whole subtree.
 */
export const LINE_MODEL = 'relation/LineRelation';

export function listQuery(customerPath: string, prefix: string): URLSearchParams {
  return new URLSearchParams({
    hierarchy: customerPath,
    filter_field: 'pattern',
    filter_condition: 'startswith',
    filter_text: prefix,
    order_by: 'pattern',
    limit: '50',
  });
}

/** What the Resources view asks at a site: its lines' first page in number order, with the total. */
export function siteListQuery(sitePath: string): URLSearchParams {
  return new URLSearchParams({ hierarchy: sitePath, order_by: 'pattern', limit: '50' });
}

export const listPathOf = (query: URLSearchParams): string => `/api/${LINE_MODEL}/?${query.toString()}`;
export const listPath = (customerPath: string, prefix: string): string => listPathOf(listQuery(customerPath, prefix));

export const instancePath = (pkid: string): string => `/api/${LINE_MODEL}/${pkid}/`;
