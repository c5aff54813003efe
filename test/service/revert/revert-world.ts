import { expect } from 'vitest';
import { upload, workbookOf } from '../bulk-validate-helpers';
import { ACME, PARIS, q, type TestService } from '../helpers';
import { loadFile } from './revert-helpers';

/**
 * A world for reverts: a block of numbers at the customer (`NUMBER(i)`, 1,000 unless `block`
 * says), the first `relations` of them used by line relations at Paris (`Line i`), loaded once
 * (never reverted).
 */
export const NUMBER = (i: number): string => `+3315${String(i).padStart(7, '0')}`;
export const PARTITION = 'Paris-PT';

export async function seedRevertWorld(t: TestService, relations: number, block = 1000): Promise<void> {
  const numbers = Array.from({ length: block }, (_, i) => [ACME, 'add', NUMBER(i), 'Available', ' ', 'Revert block']);
  const lines = Array.from({ length: relations }, (_, i) => [PARIS, 'add', NUMBER(i), PARTITION, `Line ${i}`, `line ${i}`]);
  const bytes = await workbookOf([
    {
      name: 'data_InternalNumberInventory',
      rows: [['Hierarchy Node', 'Action', 'internal_number', 'status', 'usage', 'description'], ...numbers],
    },
    {
      name: 'relation_LineRelation',
      rows: [['Hierarchy Node', 'Action', 'pattern', 'routePartitionName', 'alertingName', 'description'], ...lines],
    },
  ]);
  const { info } = await loadFile(t, bytes, PARIS);
  expect(info.state, JSON.stringify(info.load)).toBe('loaded');
}

/** The line relation holding a number, as the API lists it. */
export async function relationOf(t: TestService, pattern: string): Promise<{ pkid: string; data: Record<string, unknown> }> {
  const reply = await t.get(
    `/api/relation/LineRelation/${q(PARIS, `&summary=false&filter_field=pattern&filter_condition=equals&filter_text=${encodeURIComponent(pattern)}`)}`,
  );
  expect(reply.status, reply.text).toBe(200);
  const [found] = reply.body.resources as { data: Record<string, unknown>; meta: { pkid: string } }[];
  expect(found, pattern).toBeDefined();
  return { pkid: found.meta.pkid, data: found.data };
}

/** A file loaded by /api/tool/BulkLoad (a file's load, not a staged workbook's): answers its parent transaction. */
export async function apiLoad(t: TestService, name: string, bytes: Buffer): Promise<string> {
  expect((await upload(t, name, bytes, PARIS)).status).toBe(200);
  const reply = await t.call('POST', `/api/tool/BulkLoad/${q(PARIS, '&method=bulkload_spreadsheet&nowait=true')}`, {
    bulkload_file: name,
    execute_immediately: true,
  });
  expect(reply.status, reply.text).toBe(202);
  await t.service.idle();
  return reply.body.transaction_id as string;
}
