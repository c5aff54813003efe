import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principalOfUser } from '../../../main/service/auth/principal';
import type { WorkbookInfo } from '../../../main/service/contract/workbook-api';
import { KEY_READ } from '../../../main/service/store/workbooks-repo';
import { validateFull } from '../../../main/service/workbooks/staged-revalidate';
import { writeOutcomes } from '../../../main/service/workbooks/workbook-results';
import { openTestService, type TestService } from '../helpers';
import { settled, stage } from './workbook-helpers';

/**
 * The key index an edit finds the rows it can affect by, after full validations (a plan is
 * one): found row by row when the stored index is current, merged whole when a validation
 * stopped midway left it not current. Either way it ends as the keys of every row's outcome.
 */
const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'line-relation-libreoffice.xlsx');

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

/** Every (key, kind, row) a full validation of the rows as stored gathers, without writing anything. */
async function gatheredKeys(id: string): Promise<[number, number, number][]> {
  const { store } = t.service;
  const record = store.workbooks.get(id);
  if (!record) throw new Error('workbook gone');
  const principal = principalOfUser(store, record.owner_pkid);
  const node = store.nodes.get(record.hierarchy_pkid);
  if (!principal || !node) throw new Error('owner or node gone');
  const caller = { principal, callerPath: store.nodes.get(principal.hierarchyPkid)?.path ?? '' };
  const { keys } = await validateFull(store, record, caller, node, () => Promise.resolve());
  if (!('whole' in keys)) throw new Error('expected every key');
  return [...keys.whole.keys].map((key, at) => [key, keys.whole.kinds[at], keys.whole.rows[at]]);
}

const storedKeys = (id: string): [number, number, number][] =>
  t.service.store.workbooks.keySlice(t.service.store.workbooks.get(id)?.wb ?? -1, undefined, 10_000_000);

async function plan(info: WorkbookInfo): Promise<WorkbookInfo> {
  const started = await t.call('POST', `/workstation/workbooks/${info.id}/plan/`, { revision: info.revision });
  expect(started.status, started.text).toBe(202);
  const planned = await settled(t, info.id);
  expect(planned.state).toBe('planned');
  return planned;
}

describe('the key index of a staged workbook across full validations', () => {
  it('is found row by row for the rows whose outcome changed, and equals every row’s keys', async () => {
    const { info } = await stage(t, readFileSync(FIXTURE));
    const { store } = t.service;
    const wb = store.workbooks.get(info.id)?.wb ?? -1;
    expect(store.workbooks.getByWb(wb)?.keys_current).toBe(1);
    const before = storedKeys(info.id);
    expect(before.length).toBeGreaterThan(0);
    // Stale outcomes for two rows, written as an edit writes them (the index kept row by row):
    // the index stays the keys of the stored outcomes, now without those rows' keys.
    const stale = [...new Set(before.map(([, , row]) => row))].slice(0, 2);
    store.db.transaction(() =>
      writeOutcomes(
        store,
        wb,
        stale.map((rowId) => ({ row_id: rowId, action: 'add', errors: 0, warnings: 0, issues: [], reads: [], effects: [] })),
        'row',
      ),
    )();
    expect(storedKeys(info.id).some(([, , row]) => stale.includes(row))).toBe(false);

    await plan(info);
    // The plan found those two rows' outcomes changed and gave them their keys back.
    expect(storedKeys(info.id)).toEqual(before);
    expect(storedKeys(info.id)).toEqual(await gatheredKeys(info.id));
    expect(store.workbooks.getByWb(wb)?.keys_current).toBe(1);
  });

  it('is merged whole after a validation that stopped midway, which repairs it', async () => {
    const { info } = await stage(t, readFileSync(FIXTURE));
    const { store } = t.service;
    const wb = store.workbooks.get(info.id)?.wb ?? -1;
    const whole = storedKeys(info.id);
    // As a validation that wrote outcomes and stopped before its index: an entry gone, not current.
    const [key, kind, row] = whole.find(([, entryKind]) => entryKind === KEY_READ) ?? whole[0];
    store.workbooks.dropKey(wb, key, kind, row);
    store.workbooks.setKeysCurrent(wb, false);

    await plan(info);
    expect(storedKeys(info.id)).toEqual(whole);
    expect(store.workbooks.getByWb(wb)?.keys_current).toBe(1);
  });
});
