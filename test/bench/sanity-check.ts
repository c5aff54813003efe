import { request } from 'undici';
import { instancePath, listPath } from './list-query';

interface ListBody {
  pagination?: { total?: number };
  resources?: { data?: { pattern?: string } }[];
}

async function getJson(origin: string, path: string, authorization: string | undefined): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = authorization ? { authorization } : {};
  const response = await request(`${origin}${path}`, { headers });
  const text = await response.body.text();
  return { status: response.statusCode, body: text.startsWith('{') ? (JSON.parse(text) as unknown) : text };
}

/**
 * Before timing anything, proves the scenarios measure what they claim: credentials are
 * required, a seeded pkid is found, and a prefix list holds the expected total, page and order.
 */
export async function checkService(
  origin: string,
  authorization: string,
  pkid: string,
  customerPath: string,
  prefix: string,
  expectedTotal: number,
): Promise<void> {
  const anonymous = await getJson(origin, instancePath(pkid), undefined);
  if (anonymous.status !== 401) throw new Error(`an instance GET without credentials answered ${anonymous.status}, not 401`);
  const instance = await getJson(origin, instancePath(pkid), authorization);
  if (instance.status !== 200) throw new Error(`GET ${instancePath(pkid)} answered ${instance.status}: ${JSON.stringify(instance.body)}`);
  await checkList(origin, authorization, listPath(customerPath, prefix), expectedTotal, prefix);
}

/** A list page holds the expected total and its first 50 lines in number order, each with the prefix. */
export async function checkList(origin: string, authorization: string, path: string, expectedTotal: number, prefix = ''): Promise<void> {
  const list = await getJson(origin, path, authorization);
  if (list.status !== 200) throw new Error(`the list ${path} answered ${list.status}: ${JSON.stringify(list.body)}`);
  const { pagination, resources = [] } = list.body as ListBody;
  const patterns = resources.map((resource) => resource.data?.pattern ?? '');
  const problems = [
    pagination?.total !== expectedTotal ? `total ${pagination?.total} instead of ${expectedTotal}` : '',
    resources.length !== Math.min(50, expectedTotal) ? `${resources.length} resources instead of ${Math.min(50, expectedTotal)}` : '',
    patterns.some((pattern) => !pattern.startsWith(prefix)) ? `a pattern not starting with ${prefix}` : '',
    patterns.some((pattern, index) => index > 0 && pattern < patterns[index - 1]) ? 'patterns out of order' : '',
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`the list ${path} is not what was seeded: ${problems.join(', ')}`);
}
