import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactWorkbook, issuesOf, openValidationWorld, validator } from './bulk-validate-helpers';
import { PARIS, q, type TestService } from './helpers';
import { edit, issues, rows, stage } from './workbooks/workbook-helpers';

/**
 * What a cell hides never passes silently (issue 29, point 2): control characters in a
 * single-line field, and spaces around a name (a node, a device, a template, a partition), are
 * errors whose message quotes the value with what it hides written out, and whose fix is the
 * value without them. At every door: the API's writes, a workbook's validation, a staged workbook.
 */
let t: TestService;
let check: ReturnType<typeof validator>;

beforeAll(async () => {
  ({ t, check } = await openValidationWorld());
});
afterAll(() => t.close());

const HEADER = ['Hierarchy Node', 'CFT Template', 'Device', 'Directory Number', 'Alerting Name', 'Route Partition', 'Pattern Precedence'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the validation answer of decisions.md, read as a client would
function at(body: any, row: number, field: string): { code: string; message: string; severity: string } {
  const found = issuesOf(body).filter((entry) => entry.row === row && entry.field === field);
  expect(found, JSON.stringify(issuesOf(body), null, 1)).toHaveLength(1);
  return found[0];
}

describe('the API', () => {
  it('refuses a partition with spaces around it and a name with a tab, and stores nothing', async () => {
    const before = t.snapshot();
    const reply = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, {
      data: { pattern: '+33140001046', routePartitionName: ' Paris-PT', alertingName: 'Line\tOne' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.details).toEqual([
      {
        field: 'routePartitionName',
        message: "' Paris-PT' has spaces around it, and a route partition is looked up by its exact name: write 'Paris-PT'",
      },
      {
        field: 'alertingName',
        message: "'Line\\tOne' holds a tab, which a single-line field cannot hold (often a block pasted into one cell): remove them",
      },
    ]);
    expect(t.snapshot()).toBe(before);
  });

  it('refuses spaces around a device name on a phone, a user id or a CSS, but keeps them inside a description', async () => {
    const phone = await t.call('POST', `/api/device/cucm/Phone/${q(PARIS)}`, { data: { name: 'SEP0000CAFE0002 ' } });
    expect(phone.status).toBe(400);
    expect(phone.body.details).toEqual([
      {
        field: 'name',
        message: "'SEP0000CAFE0002 ' has spaces around it, and a device name is looked up by its exact name: write 'SEP0000CAFE0002'",
      },
    ]);
    const line = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, {
      data: { pattern: '+33140001047', callForwardAll: { callingSearchSpaceName: 'Paris-CSS ' }, description: ' two  spaces ' },
    });
    expect(line.status).toBe(400);
    expect(line.body.details.map((detail: { field: string }) => detail.field)).toEqual(['callForwardAll.callingSearchSpaceName']);
  });
});

describe('a workbook', () => {
  it('is an error for a node, a template and a device with spaces, and a pasted block, each quoted as it is', async () => {
    const storeBefore = t.snapshot({ withTransactions: true });
    const body = await check.validateBook(
      await compactWorkbook('LineRelation', HEADER, [
        [`${PARIS} `, null, null, '+33140001048', 'Node', null, null],
        [PARIS, ' Acme Line Defaults', null, '+33140001049', 'Template', null, null],
        [PARIS, null, 'SEP00AA00000001  ', '+33140001050', 'Device', null, null],
        [PARIS, null, null, '+33140001051', 'Block', 'Paris-PT', 'Default\t\nFlash'],
      ]),
    );
    expect(at(body, 2, 'Hierarchy Node')).toMatchObject({
      severity: 'error',
      code: 'spaces-around',
      message: `Row 2, Hierarchy Node (A2): '${PARIS} ' has spaces around it, and a hierarchy node is looked up by its exact name: write '${PARIS}'.`,
    });
    expect(at(body, 3, 'CFT Template').message).toBe(
      "Row 3, CFT Template (B3): ' Acme Line Defaults' has spaces around it, and a CFT template is looked up by its exact name: write 'Acme Line Defaults'.",
    );
    expect(at(body, 4, 'summary_device').message).toBe(
      "Row 4, Device (C4): 'SEP00AA00000001  ' has spaces around it, and a device is looked up by its exact name: write 'SEP00AA00000001'.",
    );
    expect(at(body, 5, 'patternPrecedence')).toMatchObject({
      code: 'control-characters',
      message:
        "Row 5, Pattern Precedence (G5): 'Default\\t\\nFlash' holds a tab and a line break, which a single-line field cannot hold (often a block pasted into one cell): remove them.",
    });
    expect(body.summary.errors).toBe(4);
    expect(t.snapshot({ withTransactions: true })).toBe(storeBefore);
  });

  it('staged, offers the value without what it hides, and applying it clears the error', async () => {
    const { info } = await stage(
      t,
      await compactWorkbook('LineRelation', HEADER, [
        [PARIS, null, ' SEP00AA00000002', '+33140001052', 'Spaces', null, null],
        [PARIS, null, null, '+33140001053', 'Break', null, 'Flash\n'],
      ]),
    );
    const column = (name: string): number => info.sheets[0].columns.find((entry) => entry.name === name)?.id as number;
    const found = (await issues(t, info.id)).issues;
    expect(found.map((entry) => [entry.code, entry.suggestion?.value])).toEqual([
      ['spaces-around', 'SEP00AA00000002'],
      ['control-characters', 'Flash'],
    ]);
    let revision = info.revision;
    for (const [code, name] of [
      ['spaces-around', 'Device'],
      ['control-characters', 'Pattern Precedence'],
    ]) {
      revision = (await edit(t, info.id, revision, { op: 'apply_suggestions', sheet: 0, code, column_id: column(name) })).revision;
    }
    const cells = (await rows(t, info.id)).rows.map((row) => [
      row.cells[String(column('Device'))],
      row.cells[String(column('Pattern Precedence'))],
    ]);
    expect(cells).toEqual([
      ['SEP00AA00000002', undefined],
      [undefined, 'Flash'],
    ]);
    expect((await issues(t, info.id)).issues).toEqual([]);
  });
});

describe('names the store holds no record of', () => {
  it("warns of a partition, CSS or presence group that differs from one the store's lines use only by a letter or case", async () => {
    const body = await check.validateBook(
      await compactWorkbook(
        'LineRelation',
        ['Hierarchy Node', 'Directory Number', 'Route Partition', 'callForwardAll.callingSearchSpaceName', 'Presence Group'],
        [
          [PARIS, '+33140001054', 'Paris-PTT', 'paris-css', 'Standard Presence Group'],
          // New names, far from any in use, are not wrong: a first site brings its own.
          [PARIS, '+33140001055', 'Lyon-PT', 'Lyon-CSS', 'Lyon Presence'],
        ],
      ),
    );
    expect(issuesOf(body).map((entry) => [entry.row, entry.field, entry.severity, entry.code])).toEqual([
      [2, 'routePartitionName', 'warning', 'name-not-in-use'],
      [2, 'callForwardAll.callingSearchSpaceName', 'warning', 'name-not-in-use'],
      [2, 'presenceGroupName', 'warning', 'name-not-in-use'],
    ]);
    expect(at(body, 2, 'routePartitionName').message).toBe(
      "Row 2, Route Partition (C2): no line here uses the route partition 'Paris-PTT', but lines use 'Paris-PT': the call manager would take 'Paris-PTT' as another route partition; write 'Paris-PT' if that is the one.",
    );
    const { info } = await stage(
      t,
      await compactWorkbook(
        'LineRelation',
        ['Hierarchy Node', 'Directory Number', 'Route Partition'],
        [[PARIS, '+33140001056', 'paris-pt']],
      ),
    );
    expect((await issues(t, info.id)).issues.map((entry) => entry.suggestion?.value)).toEqual(['Paris-PT']);
  });
});
