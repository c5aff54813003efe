import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../main/service/sheets/read-workbook';
import { validateWorkbook } from '../../main/service/sheets/validate-workbook';
import { ACME, LONDON, PARIS, type TestService } from './helpers';
import {
  basicAuth,
  compactWorkbook,
  fixture,
  FIXTURES,
  issue,
  issuesOf,
  line,
  LINE_HEADER,
  openValidationWorld,
  upload,
  uploadsIn,
  validate,
  validator,
  workbookOf,
} from './bulk-validate-helpers';

/**
 * The validation rules of a row's values and of where it runs, each with the message a field
 * engineer reads, through the real routes (upload, then POST /api/tool/BulkLoad/?method=validate)
 * on the demo data. No validation may change the store.
 */
let t: TestService;
let storeBefore: string;
let check: ReturnType<typeof validator>;

beforeAll(async () => {
  ({ t, storeBefore, check } = await openValidationWorld());
});
afterAll(() => t.close());

describe('a clean workbook', () => {
  it('validates with no error from both writers, predicts an add per row, and stores nothing', async () => {
    for (const name of ['line-relation-exceljs.xlsx', 'line-relation-libreoffice.xlsx']) {
      const body = await check.validateBook(fixture(name));
      expect(body.success).toBe(true);
      expect(body.summary).toMatchObject({ errors: 0, add: 6, modify: 0, delete: 0 });
      expect(body.sheets[0].rows.map((row: { row: number; action: string }) => [row.row, row.action])).toEqual(
        [2, 3, 4, 5, 6, 7].map((row) => [row, 'add']),
      );
    }
    expect(t.snapshot({ withTransactions: true })).toBe(storeBefore);
  });

  it('follows the rows in order: a device, a node or a freed number from an earlier row counts', async () => {
    const body = await check.validateBook(
      await workbookOf([
        {
          name: 'HierarchyNode',
          rows: [
            ['Hierarchy Node', 'name', 'node_type'],
            [ACME, 'Lyon', 'Site'],
          ],
        },
        {
          name: 'Phone',
          rows: [
            ['Hierarchy Node', 'name', 'product'],
            [`${ACME}.Lyon`, 'SEPLYON0000001', 'Cisco 8845'],
          ],
        },
        {
          name: 'LineRelation',
          rows: [
            LINE_HEADER,
            line({ hierarchy: `${ACME}.Lyon`, device: 'SEPLYON0000001', pattern: '+33470000001', name: 'Lyon 1' }),
            line({ action: 'delete', pattern: '+33140001000', partition: 'Paris-PT' }),
            line({ pattern: '+33140001000', partition: 'Paris-PT', device: 'SEP00AA00000000', name: 'Again' }),
            line({ action: 'modify', pattern: '+33140001002', partition: 'Paris-PT', name: 'Renamed' }),
          ],
        },
      ]),
    );
    expect(issuesOf(body)).toEqual([]);
    expect(body.summary).toEqual({ errors: 0, warnings: 0, add: 4, modify: 1, delete: 1 });
    expect(body.sheets[2].rows.map((row: { action: string }) => row.action)).toEqual(['add', 'delete', 'add', 'modify']);
  });
});

describe('values of a row', () => {
  it('required, bad pattern, too long: each in its cell', async () => {
    const body = await check.validateLines([
      line({ pattern: '+33 1 40 00 10 50', name: 'Spaces' }),
      line({ name: 'No number' }),
      line({ pattern: '+33140001020', name: 'x'.repeat(51) }),
    ]);
    expect(issue(body, 2, 'bad-pattern').message).toBe(
      "Row 2, Directory Number (E2): '+33 1 40 00 10 50' is not a directory number: use digits, *, # or X, with an optional leading + and no spaces.",
    );
    expect(issue(body, 3, 'required').message).toBe('Row 3, Directory Number (E3): Directory Number (pattern) is required for this row.');
    expect(issue(body, 4, 'too-long').message).toBe(
      `Row 4, Alerting Name (F4): '${'x'.repeat(51)}' is 51 characters long; at most 50 are allowed.`,
    );
    expect(issue(body, 4, 'too-long').field).toBe('alertingName');
  });

  it('a required field without a column says how to give it', async () => {
    const body = await check.validateBook(await compactWorkbook('LineRelation', ['Alerting Name'], [['Nobody']]));
    expect(issue(body, 2, 'required').message).toBe(
      'Row 2, Directory Number: Directory Number (pattern) is required: add a column for it, or a CFT template that fills it in.',
    );
  });

  it('wrong type, not a choice, too short', async () => {
    const phones = await check.validateBook(await compactWorkbook('Phone', ['name', 'protocol'], [['SEPCHOICE00001', 'H323']]));
    expect(issue(phones, 2, 'not-a-choice').message).toBe("Row 2, Protocol (B2): 'H323' is not one of the allowed values: SIP, SCCP.");
    const users = await check.validateBook(
      await compactWorkbook('User', ['username', 'role', 'password'], [['new.user', 'readonly', 'short']]),
    );
    expect(issue(users, 2, 'too-short').message).toBe("Row 2, Password (C2): 'short' is 5 characters long; at least 8 are needed.");
    const flags = await check.validateBook(
      await compactWorkbook('LineRelation', ['pattern', 'rejectAnonymousCall'], [['+33140001021', 'maybe']]),
    );
    expect(issue(flags, 2, 'wrong-type').message).toBe("Row 2, rejectAnonymousCall (B2): 'maybe' is not TRUE or FALSE.");
  });

  it('a new user needs a password', async () => {
    const body = await check.validateBook(await compactWorkbook('User', ['username', 'role'], [['no.password', 'readonly']]));
    expect(issue(body, 2, 'required').message).toBe('Row 2, Password: A new user needs a password.');
  });

  it('refuses a gap in a list', async () => {
    const body = await check.validateBook(await compactWorkbook('Phone', ['name', 'lines.1.pattern'], [['SEPGAP00000001', '+331']]));
    expect(issue(body, 2, 'array-gap').message).toBe(
      'Row 2: lines.0 is empty while a later item of that list is given: fill the list from its first item (index 0) without gaps.',
    );
  });
});

describe('where a row runs', () => {
  it('hierarchy not found, from the column or from the directive', async () => {
    const body = await check.validateLines([line({ hierarchy: `${ACME}.Pariss`, pattern: '+33140001022' })]);
    expect(issue(body, 2, 'hierarchy-not-found').message).toBe(
      "Row 2, Hierarchy Node (A2): hierarchy 'sys.hcs.Telco.Acme.Pariss' was not found: give a dot path such as sys.hcs.Telco.Acme.Paris, or a node pkid.",
    );
    const directive = await check.validateBook(
      await workbookOf([
        { name: 'Lines', rows: [['entity: relation/LineRelation; hierarchy: sys.nowhere'], ['pattern'], [], [], ['+33140001023']] },
      ]),
    );
    expect(issue(directive, 5, 'hierarchy-not-found').message).toBe(
      "Row 5: hierarchy 'sys.nowhere' (from the directive in cell A1) was not found: give a dot path such as sys.hcs.Telco.Acme.Paris, or a node pkid.",
    );
  });

  it('out of reach for a user of another site', async () => {
    const paris = basicAuth('paris.admin', 'paris-admin-pw');
    const bytes = await compactWorkbook('LineRelation', LINE_HEADER, [line({ hierarchy: LONDON, pattern: '+44207941060' })]);
    expect((await upload(t, 'paris-reach.xlsx', bytes, PARIS, paris)).status).toBe(200);
    const reply = await validate(t, 'paris-reach.xlsx', PARIS, paris);
    expect(issue(reply.body, 2, 'out-of-reach').message).toBe(
      'Row 2, Hierarchy Node (A2): paris.admin works at sys.hcs.Telco.Acme.Paris and cannot change anything outside it: have this row loaded by a user whose node holds its hierarchy.',
    );
  });

  it('an operator may not validate a bulk load at all', async () => {
    const operator = basicAuth('paris.operator', 'paris-operator-pw');
    const reply = await validate(t, 'book-1.xlsx', PARIS, operator);
    expect(reply.status).toBe(403);
    expect(reply.body.message).toMatch(/^Permission Denied/);
  });

  it('CFT template not found, or made for another model', async () => {
    const body = await check.validateLines([
      line({ template: 'Nope', pattern: '+33140001024', name: 'A' }),
      line({ template: 'Phone Defaults', pattern: '+33140001025', name: 'B' }),
    ]);
    expect(issue(body, 2, 'template-not-found').message).toBe(
      "Row 2, CFT Template (D2): CFT template 'Nope' was not found at sys.hcs.Telco.Acme.Paris or above: check its name, or create it first.",
    );
    expect(issue(body, 3, 'template-failed').message).toBe(
      "Row 3, CFT Template (D3): CFT template 'Phone Defaults' cannot be applied: Configuration Template 'Phone Defaults' is for device/cucm/Phone, not relation/LineRelation: choose one made for relation/LineRelation.",
    );
  });

  it('values a CFT template fills in are checked too, and say where they come from', async () => {
    const body = await check.validateLines([line({ template: 'Bad Line Template', pattern: '+33140001032' })]);
    expect(issue(body, 2, 'unknown-field').message).toBe(
      "Row 2, colour: 'colour' is not a field of this model (the value comes from CFT template 'Bad Line Template').",
    );
    expect(issue(body, 2, 'too-long').message).toBe(
      `Row 2, Alerting Name (F2): '${'y'.repeat(60)}' is 60 characters long; at most 50 are allowed (the value comes from CFT template 'Bad Line Template').`,
    );
  });

  it('a role that may not make the change is refused on each row', async () => {
    const workbook = await readWorkbook(join(FIXTURES, 'line-relation-exceljs.xlsx'), 'lines.xlsx');
    const node = t.service.store.nodes.getByPath(PARIS);
    if (!node) throw new Error('no Paris');
    const principal = { pkid: 'operator', username: 'paris.operator', role: 'operator' as const, hierarchyPkid: node.pkid };
    const result = validateWorkbook(t.service.store, { principal, callerPath: PARIS }, node, workbook);
    expect(issue(result, 2, 'permission-denied').message).toBe(
      'Row 2: Permission Denied: the operator role of paris.operator does not allow create by bulk load.',
    );
    expect(issue(result, 4, 'out-of-reach').field).toBe('Hierarchy Node');
    expect(result.summary.errors).toBe(6);
  });

  it('an action that is none', async () => {
    const body = await check.validateLines([line({ action: 'update', pattern: '+33140001026' })]);
    expect(issue(body, 2, 'bad-action').message).toBe(
      "Row 2, Action (B2): 'update' is not an action: write add, modify or delete (an empty cell adds).",
    );
    expect(body.sheets[0].rows[0]).toEqual({ row: 2, action: null, status: 'error' });
  });
});

describe('afterwards', () => {
  it('left the store as it was and kept only the uploads', async () => {
    expect(t.snapshot({ withTransactions: true })).toBe(storeBefore);
    expect(uploadsIn(t)).toHaveLength(check.uploaded() + 1);
  });
});
