import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME, LONDON, PARIS, q, type TestService } from './helpers';
import { compactWorkbook, issue, issuesOf, line, openValidationWorld, uploadsIn, validate, validator } from './bulk-validate-helpers';

/**
 * The validation rules of what a row changes (its target) and of what it takes from the store
 * and from the other rows (keys, numbers, devices), and the request itself. No validation may
 * change the store.
 */
let t: TestService;
let storeBefore: string;
let check: ReturnType<typeof validator>;

beforeAll(async () => {
  ({ t, storeBefore, check } = await openValidationWorld());
});
afterAll(() => t.close());

describe('what a modify or delete changes', () => {
  it('modify and delete need a target that exists', async () => {
    const body = await check.validateLines([
      line({ action: 'modify', pattern: '+33149999999', partition: 'Paris-PT', name: 'Ghost' }),
      line({ action: 'delete', pkid: '0123456789abcdef01234567' }),
      line({ action: 'delete' }),
      line({ action: 'delete', pattern: '+33140001001', partition: 'Paris-PT' }),
      line({ action: 'delete', pattern: '+33140001001', partition: 'Paris-PT' }),
    ]);
    expect(issue(body, 2, 'target-not-found').message).toBe(
      "Row 2, Directory Number (E2): no Line Relation with Directory Number '+33149999999' and Route Partition 'Paris-PT' exists at sys.hcs.Telco.Acme.Paris: check the key values, or give the pkid.",
    );
    expect(issue(body, 3, 'target-not-found').message).toBe(
      "Row 3, Unique Identifier (pkid) (H3): '0123456789abcdef01234567' is not the pkid of any relation/LineRelation: copy the pkid from an export, or leave the cell empty to find the instance by its key.",
    );
    expect(issue(body, 4, 'target-not-found').message).toBe(
      'Row 4: a delete row needs the Unique Identifier (pkid) column or the key fields pattern, routePartitionName to find the instance.',
    );
    expect(issuesOf(body).filter((entry) => entry.row === 5)).toEqual([]);
    expect(issue(body, 6, 'target-not-found').message).toMatch(
      /^Row 6, Directory Number \(E6\): no Line Relation with Directory Number '\+33140001001'/,
    );
  });

  it('a pkid deleted by an earlier row is gone', async () => {
    const existing = await t.get(
      `/api/relation/LineRelation/${q(PARIS, '&filter_field=pattern&filter_condition=equals&filter_text=%2B33140001003')}`,
    );
    const pkid = existing.body.resources[0].meta.pkid as string;
    const body = await check.validateLines([line({ action: 'delete', pkid }), line({ action: 'modify', pkid, name: 'Late' })]);
    expect(issue(body, 3, 'target-not-found').message).toBe(
      `Row 3, Unique Identifier (pkid) (H3): '${pkid}' was deleted by row 2: copy the pkid from an export, or leave the cell empty to find the instance by its key.`,
    );
  });

  it('a node that still holds resources cannot be deleted', async () => {
    const body = await check.validateBook(
      await compactWorkbook('HierarchyNode', ['Hierarchy Node', 'Action', 'name'], [[ACME, 'delete', 'Paris']]),
    );
    expect(issue(body, 2, 'node-not-empty').message).toMatch(
      /^Row 2: Hierarchy node sys\.hcs\.Telco\.Acme\.Paris still holds \d+ resources \([^)]+\); delete or move them first\.$/,
    );
  });

  it("a bundle's user, device and number cannot be changed", async () => {
    const body = await check.validateBook(
      await compactWorkbook('Bundle', ['Action', 'userid', 'pattern'], [['modify', 'bundle.user', '+33140001081']]),
    );
    expect(issue(body, 2, 'cannot-change').message).toBe(
      "Row 2, Directory Number (C2): A bundle's pattern cannot be changed: delete the bundle and add it again.",
    );
  });
});

describe('across rows and against the store', () => {
  it('a business key twice in the workbook: the second row, naming the first', async () => {
    const body = await check.validateLines([
      line({ pattern: '+33140001027', name: 'First' }),
      line({ pattern: '+33140001028' }),
      line({ pattern: '+33140001027', name: 'Second' }),
    ]);
    expect(issue(body, 4, 'duplicate-in-workbook').message).toBe(
      "Row 4, Directory Number (E4): Line Relation with Directory Number '+33140001027' and Route Partition '' is already added by row 2; each can be added once.",
    );
    expect(issuesOf(body).filter((entry) => entry.row === 2)).toEqual([]);
  });

  it('a business key the store holds', async () => {
    const body = await check.validateLines([line({ pattern: '+33140001004', partition: 'Paris-PT', device: 'SEP00AA00000002' })]);
    expect(issue(body, 2, 'duplicate-in-store').message).toMatch(
      /^Row 2, Directory Number \(E2\): Line Relation with Directory Number '\+33140001004' and Route Partition 'Paris-PT' already exists at sys\.hcs\.Telco\.Acme\.Paris; change that one instead, or pick another value\.$/,
    );
  });

  it('a device line key taken elsewhere in the tree', async () => {
    const body = await check.validateLines([line({ hierarchy: LONDON, pattern: '+33140001005', partition: 'Paris-PT' })], ACME);
    expect(issue(body, 2, 'duplicate-in-store').message).toMatch(
      /^Row 2, Directory Number \(E2\): Line with Directory Number '\+33140001005' and Route Partition 'Paris-PT' already exists at sys\.hcs\.Telco\.Acme\.Paris; a number and partition can be on one line only; pick another number or partition\.$/,
    );
  });

  it('numbers Reserved, Cooling or Used in the inventory', async () => {
    const body = await check.validateLines([
      line({ pattern: '+33140001095' }),
      line({ pattern: '+33140001086' }),
      line({ pattern: '+33140001006' }),
    ]);
    expect(issue(body, 2, 'number-not-available').message).toBe(
      'Row 2, Directory Number (E2): Directory number +33140001095 is Reserved in the internal number inventory at sys.hcs.Telco.Acme; choose an Available number.',
    );
    expect(issue(body, 3, 'number-not-available').message).toBe(
      'Row 3, Directory Number (E3): Directory number +33140001086 is Cooling in the internal number inventory at sys.hcs.Telco.Acme; choose an Available number.',
    );
    expect(issue(body, 4, 'number-not-available').message).toBe(
      'Row 4, Directory Number (E4): Directory number +33140001006 is Used in the internal number inventory at sys.hcs.Telco.Acme; choose an Available number.',
    );
  });

  it('one inventory number for two lines', async () => {
    const body = await check.validateLines([
      line({ pattern: '+33140001029', partition: 'A' }),
      line({ pattern: '+33140001029', partition: 'B' }),
    ]);
    expect(issue(body, 3, 'duplicate-number').message).toBe(
      'Row 3, Directory Number (E3): Directory number +33140001029 is already given to a line by row 2; use each number once.',
    );
  });

  it('a device that does not exist, or sits on another branch', async () => {
    const body = await check.validateLines([
      line({ pattern: '+33140001030', device: 'SEP00AA00009999' }),
      line({ pattern: '+33140001031', device: 'SEP00AA00001000' }),
    ]);
    expect(issue(body, 2, 'device-not-found').message).toBe(
      "Row 2, Device (C2): Device 'SEP00AA00009999' was not found at sys.hcs.Telco.Acme.Paris, above or below it: add the phone first or correct the device name.",
    );
    expect(issue(body, 3, 'device-not-found').message).toMatch(
      /^Row 3, Device \(C3\): Device 'SEP00AA00001000' was not found at sys\.hcs\.Telco\.Acme\.Paris/,
    );
  });

  it('a phone with no line left', async () => {
    const rows = Array.from({ length: 23 }, (_, index) => line({ pattern: String(7000 + index), device: 'SEP00AA00000005' }));
    const body = await check.validateLines(rows);
    expect(issuesOf(body).map((entry) => [entry.row, entry.code])).toEqual([[24, 'device-full']]);
    expect(issue(body, 24, 'device-full').message).toBe(
      "Row 24, Device (C24): Device 'SEP00AA00000005' already has 24 lines, the most a phone takes: put this line on another phone.",
    );
  });

  it('a bundle needs its user, phone and number free', async () => {
    const body = await check.validateBook(
      await compactWorkbook(
        'Bundle',
        ['userid', 'device_name', 'pattern', 'alertingName'],
        [['bundle.user', 'SEPBUNDLE0001', '+33140001080', 'Again']],
      ),
    );
    expect(issuesOf(body).map((entry) => [entry.column, entry.code])).toEqual([
      ['A', 'duplicate-in-store'],
      ['B', 'duplicate-in-store'],
      ['C', 'duplicate-in-store'],
    ]);
  });
});

describe('the request', () => {
  it('needs a file name, an upload of that name and method=validate', async () => {
    const noName = await t.call('POST', `/api/tool/BulkLoad/${q(PARIS, '&method=validate')}`, {});
    expect([noName.status, noName.body.code]).toEqual([400, 'validation-failed']);
    const unknown = await validate(t, 'never-uploaded.xlsx', PARIS);
    expect([unknown.status, unknown.body.message]).toEqual([
      404,
      "No uploaded file is named 'never-uploaded.xlsx': upload it with POST /api/uploadfiles/ first, then give the same name.",
    ]);
    const noMethod = await t.call('POST', `/api/tool/BulkLoad/${q(PARIS)}`, { bulkload_file: 'book-1.xlsx' });
    expect([noMethod.status, noMethod.body.code]).toEqual([400, 'bad-parameter']);
    const get = await t.get(`/api/tool/BulkLoad/${q(PARIS, '&method=validate')}`);
    expect(get.status).toBe(405);
    const noHierarchy = await t.call('POST', '/api/tool/BulkLoad/?method=validate', { bulkload_file: 'book-1.xlsx' });
    expect([noHierarchy.status, noHierarchy.body.code]).toEqual([400, 'hierarchy-required']);
  });
});

describe('afterwards', () => {
  it('left the store as it was and kept only the uploads', async () => {
    expect(t.snapshot({ withTransactions: true })).toBe(storeBefore);
    expect(uploadsIn(t)).toHaveLength(check.uploaded());
  });
});
