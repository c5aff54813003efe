import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactWorkbook, issuesOf, openValidationWorld, validator } from './bulk-validate-helpers';
import { BASIC, PARIS, q, type TestService } from './helpers';
import { edit, issues, rows, stage } from './workbooks/workbook-helpers';

/**
 * Enumerated fields are checked as the call manager checks them (issue 29, point 1): a value
 * the call manager would refuse (or take and misbehave with) is an error at every door (the
 * API's writes, a workbook's validation, a staged workbook) with the nearest valid choice; the
 * choices are in the schema, the form and the template's drop-downs.
 */
let t: TestService;
let check: ReturnType<typeof validator>;

beforeAll(async () => {
  ({ t, check } = await openValidationWorld());
});

/** The one issue of a row at a field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the validation answer of decisions.md, read as a client would
function at(body: any, row: number, field: string): { code: string; message: string } {
  const found = issuesOf(body).filter((entry) => entry.row === row && entry.field === field);
  expect(found, JSON.stringify(issuesOf(body), null, 1)).toHaveLength(1);
  return found[0];
}
afterAll(() => t.close());

const HEADER = ['Hierarchy Node', 'Directory Number', 'Alerting Name', 'Usage', 'Auto Answer', 'Pattern Precedence', 'Party Entrance Tone'];

describe('the API', () => {
  it('refuses a misspelt Auto Answer with the nearest choice, and stores nothing', async () => {
    const before = t.snapshot();
    const reply = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, {
      data: { pattern: '+33140001041', autoAnswer: 'Auto Answer Offf' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('validation-failed');
    expect(reply.body.details).toEqual([
      {
        field: 'autoAnswer',
        message:
          "'Auto Answer Offf' is not one of the allowed values: Auto Answer Off, Auto Answer with Headset, Auto Answer with Speakerphone; the nearest is 'Auto Answer Off'",
      },
    ]);
    expect(t.snapshot()).toBe(before);
  });

  it('refuses a phone product the call manager does not have, naming the nearest', async () => {
    const reply = await t.call('POST', `/api/device/cucm/Phone/${q(PARIS)}`, { data: { name: 'SEP0000CAFE0001', product: 'Cisco 8854' } });
    expect(reply.status).toBe(400);
    expect(reply.body.details[0].field).toBe('product');
    expect(reply.body.details[0].message).toMatch(/^'Cisco 8854' is not one of the \d+ allowed values .*; the nearest is 'Cisco 8851'$/);
  });

  it('takes every value an administrator picks on the call manager', async () => {
    const reply = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, {
      data: {
        pattern: '+33140001042',
        usage: 'Device',
        autoAnswer: 'Auto Answer with Speakerphone',
        patternPrecedence: 'Flash Override',
        partyEntranceTone: 'Off',
        releaseClause: 'Call Rejected',
        cfaCssPolicy: 'With Activating Device/Line CSS',
      },
    });
    expect(reply.status, reply.text).toBe(200);
  });

  it('lists the choices in the form schema', async () => {
    const form = await t.get(`/api/relation/LineRelation/add/${q(PARIS)}`);
    const values = (name: string): string[] =>
      (form.body.schema.properties[name].choices as { value: string }[]).map((choice) => choice.value);
    expect(values('autoAnswer')).toEqual(['Auto Answer Off', 'Auto Answer with Headset', 'Auto Answer with Speakerphone']);
    expect(values('partyEntranceTone')).toEqual(['Default', 'On', 'Off']);
    expect(values('patternPrecedence')).toEqual([
      'Default',
      'Executive Override',
      'Flash Override',
      'Flash',
      'Immediate',
      'Priority',
      'Routine',
    ]);
    expect(values('usage')).toContain('Device');
    expect(values('releaseClause')).toContain('No Error');
    expect(values('cfaCssPolicy')).toContain('Use System Default');
  });
});

describe('a workbook', () => {
  it('is an error per misspelt value, each with the nearest choice, and nothing is stored', async () => {
    const storeBefore = t.snapshot({ withTransactions: true });
    const body = await check.validateBook(
      await compactWorkbook('LineRelation', HEADER, [[PARIS, '+33140001043', 'Typo', 'Devise', 'Auto Answer Offf', 'flash', 'On']]),
    );
    expect(body.summary.errors).toBe(3);
    expect(at(body, 2, 'usage').message).toBe(
      "Row 2, Usage (D2): 'Devise' is not one of the allowed values: Device, Device Intercom, Device template, Device Intercom Template; the nearest is 'Device'.",
    );
    expect(at(body, 2, 'autoAnswer').message).toMatch(/'Auto Answer Offf' is not .*; the nearest is 'Auto Answer Off'\.$/);
    expect(at(body, 2, 'patternPrecedence').message).toMatch(/'flash' is not .*; the nearest is 'Flash'\.$/);
    expect(t.snapshot({ withTransactions: true })).toBe(storeBefore);
  });

  it('staged, offers the nearest choice as the fix, and applying it clears the error', async () => {
    const { info } = await stage(
      t,
      await compactWorkbook('LineRelation', HEADER, [
        [PARIS, '+33140001044', 'One', 'Devise', null, null, null],
        [PARIS, '+33140001045', 'Two', 'devce', null, null, null],
      ]),
    );
    const usage = info.sheets[0].columns.find((column) => column.name === 'Usage')?.id as number;
    const found = (await issues(t, info.id)).issues.filter((entry) => entry.code === 'not-a-choice');
    expect(found.map((entry) => entry.suggestion?.value)).toEqual(['Device', 'Device']);
    const applied = await edit(t, info.id, info.revision, { op: 'apply_suggestions', sheet: 0, code: 'not-a-choice', column_id: usage });
    expect(applied.changed).toBe(2);
    expect((await rows(t, info.id)).rows.map((row) => row.cells[String(usage)])).toEqual(['Device', 'Device']);
    expect((await issues(t, info.id)).issues.filter((entry) => entry.code === 'not-a-choice')).toEqual([]);
  });

  it("offers the choices as the template's drop-downs", async () => {
    const reply = await t.service.handle({
      method: 'GET',
      url: `/api/relation/LineRelation/export_bulkload_template/${q(PARIS)}`,
      headers: { authorization: BASIC },
    });
    expect(reply.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((reply.body as Uint8Array).slice().buffer as ArrayBuffer);
    const sheet = book.worksheets[0];
    const names = (sheet.getRow(2).values as unknown[]).slice(1);
    const cell = sheet.getRow(5).getCell(names.indexOf('autoAnswer') + 1);
    expect(cell.dataValidation).toMatchObject({
      type: 'list',
      formulae: ['"Auto Answer Off,Auto Answer with Headset,Auto Answer with Speakerphone"'],
    });
  });
});
