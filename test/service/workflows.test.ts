import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME, LONDON, openTestService, PARIS, q, type TestService } from './helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

interface LogLine {
  message: string;
  severity: string;
  log_id: string;
  href: string;
  time: string;
  format: string;
  transaction_id: string;
}

async function logOf(transactionId: string): Promise<LogLine[]> {
  return (await t.get(`/api/tool/Transaction/${transactionId}/`)).body.data.log;
}
const messages = (log: LogLine[]) => [...log].reverse().map((entry) => entry.message);

async function inventoryStatus(number: string): Promise<string> {
  const reply = await t.get(
    `/api/data/InternalNumberInventory/${q(ACME, `&filter_field=internal_number&filter_condition=equals&filter_text=${encodeURIComponent(number)}`)}`,
  );
  return reply.body.resources[0]?.data.status;
}
async function deviceLines(pattern: string): Promise<number> {
  const reply = await t.get(
    `/api/device/cucm/Line/${q('sys', `&filter_field=pattern&filter_condition=equals&filter_text=${encodeURIComponent(pattern)}`)}`,
  );
  return reply.body.pagination.total;
}

describe('LineRelation workflow', () => {
  it('adds the device line, marks the number Used and puts the line on the phone', async () => {
    expect(await inventoryStatus('+33140001050')).toBe('Available');
    const reply = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, {
      data: {
        pattern: '+33140001050',
        alertingName: 'New Starter',
        summary_device: 'SEP00AA0000000' + '3',
        routePartitionName: 'Paris-PT',
      },
    });
    expect(reply.status).toBe(200);
    expect(await inventoryStatus('+33140001050')).toBe('Used');
    expect(await deviceLines('+33140001050')).toBe(1);
    const phone = await t.get(
      `/api/device/cucm/Phone/${q(PARIS, '&filter_field=name&filter_condition=equals&filter_text=SEP00AA00000003&summary=false')}`,
    );
    expect(phone.body.resources[0].data.lines).toContainEqual({ pattern: '+33140001050', routePartitionName: 'Paris-PT' });
    const relation = await t.get(reply.body.href);
    expect(relation.body.meta.references.device[0].href).toMatch(/^\/api\/device\/cucm\/Line\/[0-9a-f]{24}\/$/);

    const log = await logOf(reply.body.transaction_id);
    expect(log[0].log_id > log[log.length - 1].log_id || Number(log[0].log_id) > Number(log[log.length - 1].log_id)).toBe(true);
    expect(messages(log)).toEqual([
      'Transaction started: Create relation/LineRelation +33140001050 Paris-PT',
      'Step 1 - Start Add device line +33140001050 at sys.hcs.Telco.Acme.Paris',
      'Step 1 - End',
      'Step 2 - Start Mark +33140001050 Used in the internal number inventory',
      'Step 2 - End',
      'Step 3 - Start Put line +33140001050 on device SEP00AA00000003',
      'Step 3 - End',
      'Step 4 - Start Save line relation +33140001050',
      'Step 4 - End',
      'Transaction completed successfully.',
    ]);
    for (const entry of log) {
      expect(entry).toMatchObject({ severity: 'info', format: 'text', transaction_id: reply.body.transaction_id });
      expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
      expect(entry.href).toBe(`/api/tool/Transaction/${reply.body.transaction_id}/log/?log_id=${entry.log_id}`);
    }
    const one = await t.get(log[1].href);
    expect(one.body.data).toEqual(log[1]);
  });

  it('skips the inventory step for a number the inventory does not hold', async () => {
    const reply = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, { data: { pattern: '+33199999999' } });
    expect(reply.status).toBe(200);
    expect(messages(await logOf(reply.body.transaction_id))).toContain(
      'Step 2 - Condition unmet, skipping step. Mark +33199999999 Used in the internal number inventory: number +33199999999 is not in the internal number inventory at sys.hcs.Telco.Acme.Paris or above.',
    );
  });

  it('rolls back the device line when a later step fails (a Reserved number), storing nothing', async () => {
    expect(await inventoryStatus('+33140001095')).toBe('Reserved');
    const before = t.snapshot();
    const reply = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, {
      data: { pattern: '+33140001095', alertingName: 'Too Soon' },
    });
    expect(reply.status).toBe(409);
    expect(reply.body.message).toBe(
      'Directory number +33140001095 is Reserved in the internal number inventory at sys.hcs.Telco.Acme; choose an Available number.',
    );
    expect(t.snapshot()).toBe(before);
    expect(await deviceLines('+33140001095')).toBe(0);
    const tx = await t.get(`/api/tool/Transaction/${reply.body.transaction_id}/`);
    expect(tx.body.data).toMatchObject({ status: 'Fail', rolled_back: 'Yes' });
    const log = messages(tx.body.data.log);
    expect(log).toContain('Step 1 - End');
    expect(log).toContain(
      'Step 2 - Failed: Directory number +33140001095 is Reserved in the internal number inventory at sys.hcs.Telco.Acme; choose an Available number.',
    );
    expect(tx.body.data.log[0].severity).toBe('error');
  });

  it('fails when the named device does not exist, rolling back the line and the number', async () => {
    const before = t.snapshot();
    const reply = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, {
      data: { pattern: '+33140001060', summary_device: 'SEPDEADBEEF0000' },
    });
    expect(reply.status).toBe(404);
    expect(reply.body.message).toMatch(/Device 'SEPDEADBEEF0000' was not found/);
    expect(t.snapshot()).toBe(before);
    expect(await inventoryStatus('+33140001060')).toBe('Available');
  });

  it('refuses a device that sits on another branch of the tree', async () => {
    const before = t.snapshot();
    const reply = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, {
      data: { pattern: '+33140001061', summary_device: 'SEP00AA00001000' },
    });
    expect(reply.status).toBe(404);
    expect(reply.body.message).toMatch(/Device 'SEP00AA00001000' was not found at sys.hcs.Telco.Acme.Paris, above or below it/);
    expect(t.snapshot()).toBe(before);
  });

  it('refuses a 25th line on a phone, in the words workbook validation uses (domain/rules/phones.ts)', async () => {
    const lines = Array.from({ length: 24 }, (_, index) => ({ pattern: String(8100 + index), routePartitionName: '' }));
    const phone = await t.call('POST', `/api/device/cucm/Phone/${q(PARIS)}`, { data: { name: 'SEPFULL00000001', lines } });
    expect(phone.status).toBe(200);
    const before = t.snapshot();
    const reply = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, {
      data: { pattern: '+33140001062', summary_device: 'SEPFULL00000001' },
    });
    expect(reply.status).toBe(409);
    expect(reply.body.code).toBe('conflict');
    expect(reply.body.message).toBe(
      "Device 'SEPFULL00000001' already has 24 lines, the most a phone takes: put this line on another phone.",
    );
    expect(t.snapshot()).toBe(before);
    expect(await inventoryStatus('+33140001062')).toBe('Available');
  });

  it('modifies: a new number frees the old one and uses the new one', async () => {
    const created = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, { data: { pattern: '+33140001070' } });
    const modified = await t.call('PUT', created.body.href, { data: { pattern: '+33140001071', alertingName: 'Renumbered' } });
    expect(modified.status).toBe(200);
    expect(await inventoryStatus('+33140001070')).toBe('Available');
    expect(await inventoryStatus('+33140001071')).toBe('Used');
    expect(await deviceLines('+33140001070')).toBe(0);
    expect(await deviceLines('+33140001071')).toBe(1);
    expect((await t.get(created.body.href)).body.data.alertingName).toBe('Renumbered');
  });

  it('deletes: step 1 removes the device line, step 2 frees the number', async () => {
    const list = await t.get(
      `/api/relation/LineRelation/${q(LONDON, '&filter_field=pattern&filter_condition=equals&filter_text=%2B44207941000')}`,
    );
    const target = list.body.resources[0];
    const reply = await t.call('DELETE', target.meta.href);
    expect(reply.status).toBe(200);
    expect(messages(await logOf(reply.body.transaction_id))).toEqual([
      'Transaction started: Delete relation/LineRelation +44207941000 London-PT',
      'Step 1 - Start Remove device line +44207941000 from sys.hcs.Telco.Acme.London',
      'Step 1 - End',
      'Step 2 - Start Release +44207941000 in the internal number inventory',
      'Step 2 - End',
      'Transaction completed successfully.',
    ]);
    expect(await inventoryStatus('+44207941000')).toBe('Available');
    expect(await deviceLines('+44207941000')).toBe(0);
    const phone = await t.get(
      `/api/device/cucm/Phone/${q(LONDON, '&filter_field=name&filter_condition=equals&filter_text=SEP00AA00001000&summary=false')}`,
    );
    expect(phone.body.resources[0].data.lines.map((l: { pattern: string }) => l.pattern)).toEqual(['+44207941001']);
  });

  it('skips step 2 of a delete when the number is not in the inventory', async () => {
    const created = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, { data: { pattern: '5550100' } });
    const reply = await t.call('DELETE', created.body.href);
    const log = messages(await logOf(reply.body.transaction_id));
    expect(log[1]).toBe('Step 1 - Start Remove device line 5550100 from sys.hcs.Telco.Acme.Paris');
    expect(log[3]).toMatch(
      /^Step 2 - Condition unmet, skipping step\. Release 5550100 in the internal number inventory: number 5550100 is not in the internal number inventory/,
    );
  });
});

describe('Bundle workflow', () => {
  const bundle = {
    userid: 'new.hire',
    firstname: 'New',
    lastname: 'Hire',
    device_name: 'SEP0011223344AA',
    product: 'Cisco 8845',
    pattern: '+33140001080',
    alertingName: 'New Hire',
  };

  it('creates subscriber, phone and line in one transaction', async () => {
    const reply = await t.call('POST', `/api/relation/Bundle/${q(PARIS)}`, { data: bundle });
    expect(reply.status).toBe(200);
    expect(
      (await t.get(`/api/relation/Subscriber/${q(PARIS, '&filter_field=userid&filter_condition=equals&filter_text=new.hire')}`)).body
        .pagination.total,
    ).toBe(1);
    expect(await deviceLines('+33140001080')).toBe(1);
    expect(await inventoryStatus('+33140001080')).toBe('Used');
    const tx = await t.get(`/api/tool/Transaction/${reply.body.transaction_id}/`);
    expect(messages(tx.body.data.log).filter((m: string) => m.endsWith(' - End'))).toHaveLength(5);
    const deleted = await t.call('DELETE', reply.body.href);
    expect(deleted.status).toBe(200);
    expect(await inventoryStatus('+33140001080')).toBe('Available');
    expect(
      (await t.get(`/api/device/cucm/Phone/${q(PARIS, '&filter_field=name&filter_condition=equals&filter_text=SEP0011223344AA')}`)).body
        .pagination.total,
    ).toBe(0);
  });

  it('rolls back subscriber and phone when the line cannot be made', async () => {
    const before = t.snapshot();
    const reply = await t.call('POST', `/api/relation/Bundle/${q(PARIS)}`, {
      data: { ...bundle, userid: 'late.hire', device_name: 'SEP0011223344BB', pattern: '+33140001001' },
    });
    expect(reply.status).toBe(409);
    expect(t.snapshot()).toBe(before);
    const tx = await t.get(`/api/tool/Transaction/${reply.body.transaction_id}/`);
    expect(tx.body.data.rolled_back).toBe('Yes');
    expect(messages(tx.body.data.log)).toEqual(expect.arrayContaining(['Step 1 - End', 'Step 2 - End']));
  });
});
