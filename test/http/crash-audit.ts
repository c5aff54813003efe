import { expect } from 'vitest';
import type { ApiClient } from './api-client';
import type { TransactionData } from './transactions-api';
import type { WriteRecord } from './write-load';

/**
 * The checks made after a killed server restarts: what its transactions say must match what
 * the store holds, and everything a client was told succeeded must still be there.
 */
const LINE_RELATION = 'relation/LineRelation';
const instanceHref = (pkid: string): string => `/api/relation/LineRelation/${pkid}/`;

/** GET status of many instances, a few at a time so the server is not flooded. */
export async function statusesOf(api: ApiClient, pkids: string[]): Promise<Map<string, number>> {
  const statuses = new Map<string, number>();
  for (let i = 0; i < pkids.length; i += 16) {
    const batch = pkids.slice(i, i + 16);
    const answers = await Promise.all(batch.map((pkid) => api.get(instanceHref(pkid))));
    batch.forEach((pkid, index) => statuses.set(pkid, answers[index].status));
  }
  return statuses;
}

/** Success creates exist unless a Success delete removed them; failed creates left nothing. */
export async function auditLineRelations(api: ApiClient, transactions: TransactionData[]): Promise<void> {
  const ofModel = transactions.filter((tx) => tx.model_type === LINE_RELATION);
  const created = ofModel.filter((tx) => tx.action === 'Create' && tx.status === 'Success').map((tx) => tx.resource.pkid);
  const failedCreates = ofModel.filter((tx) => tx.action === 'Create' && tx.status === 'Fail').map((tx) => tx.resource.pkid);
  const deleted = new Set(ofModel.filter((tx) => tx.action === 'Delete' && tx.status === 'Success').map((tx) => tx.resource.pkid));
  const createdSet = new Set(created);
  expect(
    [...deleted].filter((pkid) => !createdSet.has(pkid)),
    'deleted instances that were never created',
  ).toEqual([]);

  const statuses = await statusesOf(api, [...created, ...failedCreates]);
  const wrongCreated = created.filter((pkid) => statuses.get(pkid) !== (deleted.has(pkid) ? 404 : 200));
  expect(wrongCreated, 'Success creates whose instance is missing (or a deleted one still there)').toEqual([]);
  const leftovers = failedCreates.filter((pkid) => statuses.get(pkid) !== 404);
  expect(leftovers, 'Fail creates whose instance exists').toEqual([]);
  expect(await api.total(LINE_RELATION, 'sys')).toBe(created.length - deleted.size);
}

interface LineData {
  pattern: string;
  routePartitionName?: string;
}

/** One device line per line relation, and Used numbers exactly where relations use them. */
export async function auditDeviceSide(api: ApiClient, customer: string): Promise<void> {
  const key = (data: LineData): string => `${data.pattern}|${data.routePartitionName ?? ''}`;
  const relations = (await api.listAll<LineData>(LINE_RELATION, 'sys')).map((r) => key(r.data)).sort();
  const lines = (await api.listAll<LineData>('device/cucm/Line', 'sys')).map((l) => key(l.data)).sort();
  expect(lines).toEqual(relations);

  const inventory = await api.listAll<{ internal_number: string; status: string }>('data/InternalNumberInventory', customer);
  const patterns = new Set(relations.map((entry) => entry.split('|')[0]));
  const used = inventory
    .filter((entry) => entry.data.status === 'Used')
    .map((entry) => entry.data.internal_number)
    .sort();
  const inUse = inventory
    .map((entry) => entry.data.internal_number)
    .filter((number) => patterns.has(number))
    .sort();
  expect(used).toEqual(inUse);
}

/** Every answer a client got before the kill still holds after the restart. */
export async function auditAcknowledged(api: ApiClient, records: WriteRecord[], transactions: TransactionData[]): Promise<void> {
  const byId = new Map(transactions.map((tx) => [tx.transaction_id, tx]));
  const accepted = records.filter((record) => record.status === 202).map((record) => record.transactionId ?? '');
  expect(
    accepted.filter((id) => !byId.has(id)),
    'accepted (202) transactions that were lost',
  ).toEqual([]);
  const refused = records.filter((record) => record.kind === 'duplicate' && record.status === 409);
  expect(refused.filter((record) => byId.get(record.transactionId ?? '')?.status !== 'Fail')).toEqual([]);

  const touchedByDelete = new Set(records.filter((r) => r.kind.startsWith('delete')).map((r) => r.pkid));
  const kept = records.filter((r) => r.kind === 'create' && r.status === 200 && !touchedByDelete.has(r.pkid)).map((r) => r.pkid ?? '');
  const gone = records.filter((r) => r.kind === 'delete' && r.status === 200).map((r) => r.pkid ?? '');
  const statuses = await statusesOf(api, [...kept, ...gone]);
  expect(
    kept.filter((pkid) => statuses.get(pkid) !== 200),
    'created (200) instances lost by the crash',
  ).toEqual([]);
  expect(
    gone.filter((pkid) => statuses.get(pkid) !== 404),
    'deleted (200) instances back after the crash',
  ).toEqual([]);
}
