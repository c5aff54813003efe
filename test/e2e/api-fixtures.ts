import type { ApiClient, Credentials, Resource } from '../http/api-client';
import { ACME, PARIS } from './app-page';

/**
 * What the flows need in the store before the browser opens, made through the API with Basic
 * auth (never through the UI under test), and the independent API reads the flows compare with.
 */
export const LINE = 'relation/LineRelation';
export const BULK_LINES = 130;
export const TEMPLATE_NAME = 'E2E Line Template';
export const OPERATOR: Credentials = { username: 'paris.operator', password: 'operator-secret-1' };
/** An admin whose node is Paris (a site administrator): it may change nothing above Paris. */
export const SITE_ADMIN: Credentials = { username: 'paris.admin', password: 'site-admin-secret-1' };

async function post(api: ApiClient, model: string, hierarchy: string, data: Record<string, unknown>): Promise<string> {
  const answer = await api.post<{ pkid: string }>(`/api/${model}/?hierarchy=${encodeURIComponent(hierarchy)}`, { data });
  if (answer.status !== 200) throw new Error(`POST ${model} at ${hierarchy} gave ${answer.status}: ${answer.text}`);
  return answer.body.pkid;
}

/** An operator at Paris: reads, searches and exports there, changes nothing. */
export function createOperator(api: ApiClient): Promise<string> {
  return post(api, 'data/User', PARIS, { username: OPERATOR.username, role: 'operator', password: OPERATOR.password });
}

export function createSiteAdmin(api: ApiClient): Promise<string> {
  return post(api, 'data/User', PARIS, { username: SITE_ADMIN.username, role: 'admin', password: SITE_ADMIN.password });
}

/** A CFT for lines at the customer: the fields it fills are checked on the stored instance. */
export const TEMPLATE_FILLS = { presenceGroupName: 'E2E Presence group', usage: 'Device', shareLineAppearanceCssName: 'E2E-SLA-CSS' };

export function createTemplate(api: ApiClient): Promise<string> {
  return post(api, 'data/ConfigurationTemplate', ACME, {
    name: TEMPLATE_NAME,
    description: 'Line settings for the end-to-end suite',
    target_model_type: LINE,
    merge_strategy: 'merge',
    template: { ...TEMPLATE_FILLS, description: '{{ input.alertingName }} (E2E)' },
  });
}

export const bulkPattern = (index: number): string => `+3319000${String(index).padStart(4, '0')}`;
export const bulkName = (index: number): string => `Bulk line ${String(index).padStart(3, '0')}`;

/** Lines at Paris outside the inventory, enough for several pages of 50 once filtered on "bulk". */
export async function createBulkLines(api: ApiClient, count = BULK_LINES): Promise<void> {
  const indexes = Array.from({ length: count }, (_, i) => i + 1);
  // A few at a time: the service queues transactions anyway; this only overlaps the round trips.
  for (let start = 0; start < indexes.length; start += 8) {
    await Promise.all(
      indexes
        .slice(start, start + 8)
        .map((i) => post(api, LINE, PARIS, { pattern: bulkPattern(i), routePartitionName: 'Paris-PT', alertingName: bulkName(i) })),
    );
  }
}

export type LineData = { pattern: string; alertingName?: string; routePartitionName?: string };

/** Every line at or below a node, straight from the API. */
export function allLines(api: ApiClient, hierarchy = PARIS): Promise<Resource<LineData>[]> {
  return api.listAll<LineData>(LINE, hierarchy);
}

/** One instance in full (not the list's summary). */
export async function readInstance<D>(
  api: ApiClient,
  href: string,
): Promise<{ data: D; meta: { tags?: string[]; pkid: string; href: string } }> {
  const answer = await api.get<{ data: D; meta: { tags?: string[]; pkid: string; href: string } }>(href);
  if (answer.status !== 200) throw new Error(`GET ${href} gave ${answer.status}: ${answer.text}`);
  return answer.body;
}

/** A line found by its pattern at Paris, or undefined. */
export async function lineByPattern(api: ApiClient, pattern: string): Promise<Resource<LineData> | undefined> {
  const query = `&filter_field=pattern&filter_condition=equals&filter_text=${encodeURIComponent(pattern)}`;
  const answer = await api.get<{ resources: Resource<LineData>[] }>(`/api/${LINE}/?hierarchy=${encodeURIComponent(PARIS)}${query}`);
  if (answer.status !== 200) throw new Error(`listing lines gave ${answer.status}: ${answer.text}`);
  return answer.body.resources[0];
}
