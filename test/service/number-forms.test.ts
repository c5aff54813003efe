import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookInfo } from '../../main/service/contract/workbook-api';
import { compactWorkbook, issuesOf, openValidationWorld, validator } from './bulk-validate-helpers';
import { ACME, PARIS, q, type TestService } from './helpers';
import { edit, issues, rows, settled, stage } from './workbooks/workbook-helpers';

/**
 * A suggestion never changes a number's meaning silently (issue 29, point 3). A directory number
 * Excel stored as a number (its + lost) is given back in the form the inventory holds it in;
 * where no form is certain, the fix says so and keeps the digits. Applied, the fix makes the line
 * the inventory's number, which the load then marks Used. Digits typed without the inventory's +
 * are a warning. On the demo world: Paris's inventory holds +33140001000 to +33140001099.
 */
let t: TestService;
let check: ReturnType<typeof validator>;

beforeAll(async () => {
  ({ t, check } = await openValidationWorld());
});
afterAll(() => t.close());

const HEADER = ['Hierarchy Node', 'Directory Number', 'Alerting Name'];
const numeric = (value: number) => ({ kind: 'number' as const, value });

async function inventoryStatus(number: string): Promise<string> {
  const reply = await t.get(
    `/api/data/InternalNumberInventory/${q(ACME, `&summary=false&filter_field=internal_number&filter_condition=equals&filter_text=${encodeURIComponent(number)}`)}`,
  );
  expect(reply.body.resources, reply.text).toHaveLength(1);
  return reply.body.resources[0].data.status;
}

async function linesWith(pattern: string): Promise<number> {
  const reply = await t.get(
    `/api/relation/LineRelation/${q(PARIS, `&filter_field=pattern&filter_condition=equals&filter_text=${encodeURIComponent(pattern)}`)}`,
  );
  return reply.body.pagination.total;
}

describe('a workbook validated', () => {
  it('names the form the inventory holds a numeric directory number in', async () => {
    const body = await check.validateBook(
      await compactWorkbook('LineRelation', HEADER, [
        [PARIS, numeric(33140001026), 'Lost plus'],
        [PARIS, numeric(33149999901), 'Unknown'],
        [PARIS, '33140001027', 'Typed without plus'],
      ]),
    );
    const found = issuesOf(body).map((entry) => [entry.row, entry.severity, entry.code, entry.message]);
    expect(found).toEqual([
      [
        2,
        'warning',
        'numeric-in-text-column',
        "Row 2, Directory Number (B2): Excel stored +33140001026 as the number 33140001026, dropping its +: the internal number inventory at sys.hcs.Telco.Acme holds '+33140001026' (Available); store it as that text, in a column formatted as Text.",
      ],
      [
        3,
        'warning',
        'numeric-in-text-column',
        "Row 3, Directory Number (B3): numeric cell read as the text '33149999901': format the column as Text so numbers keep a leading + or 0 (store directory numbers as text); whether it had a + or a leading 0 before it was stored as a number cannot be known here (the internal number inventory does not hold it in any form, nor do the sheet's other numbers agree on one).",
      ],
      [
        4,
        'warning',
        'number-form-differs',
        "Row 4, Directory Number (B4): '33140001027' is not in the internal number inventory, but '+33140001027' is (Available at sys.hcs.Telco.Acme): loaded as it is, the line's number would not be the inventory's and '+33140001027' would stay Available; write '+33140001027' if that is the number.",
      ],
    ]);
  });

  it("gives a number the inventory does not hold the form the sheet's other numbers are written in, when they agree", async () => {
    const body = await check.validateBook(
      await compactWorkbook('LineRelation', HEADER, [
        [PARIS, '+33149999950', 'Written with plus'],
        [PARIS, '+33149999951', 'Written with plus'],
        [PARIS, numeric(33149999952), 'Plus lost'],
        // Another country's digits of the same length: the sheet's numbers all start +33.
        [PARIS, numeric(44149999953), 'Not the sheet country'],
      ]),
    );
    const found = issuesOf(body).map((entry) => [entry.row, entry.message]);
    expect(found).toEqual([
      [
        4,
        "Row 4, Directory Number (B4): Excel stored +33149999952 as the number 33149999952, dropping its +: the sheet's other numbers in this column are written with it ('+33149999950'), and the internal number inventory does not hold it in any form; store it as that text, in a column formatted as Text.",
      ],
      [
        5,
        expect.stringMatching(
          /cannot be known here \(the internal number inventory does not hold it in any form, nor do the sheet's other numbers agree on one\)\.$/,
        ),
      ],
    ]);
  });

  it('keeps the digits when the sheet writes its numbers in more than one form', async () => {
    const body = await check.validateBook(
      await compactWorkbook('LineRelation', HEADER, [
        [PARIS, '0149999960', 'National'],
        [PARIS, '+33149999961', 'International'],
        [PARIS, numeric(149999962), 'Lost a zero or a plus'],
      ]),
    );
    const [only] = issuesOf(body);
    expect(only.row).toBe(4);
    expect(only.message).toMatch(/cannot be known here/);
  });
});

describe('a staged workbook', () => {
  it("offers the form the sheet's numbers are written in, counting the rows after the number too", async () => {
    const { info } = await stage(
      t,
      await compactWorkbook('LineRelation', HEADER, [
        [PARIS, numeric(149999970), 'Lost its zero'],
        [PARIS, '0149999971', 'National'],
        [PARIS, '0149999972', 'National'],
      ]),
    );
    const [found] = (await issues(t, info.id)).issues;
    expect(found.suggestion).toEqual({
      label: "Store it as the text '0149999970', as the sheet's other numbers are written (149999970 -> 0149999970)",
      value: '0149999970',
    });
  });

  it('fixes a number Excel stored as a number to the inventory form, and the load uses the inventory number', async () => {
    const { info } = await stage(
      t,
      await compactWorkbook('LineRelation', HEADER, [
        [PARIS, numeric(33140001030), 'Lost plus one'],
        [PARIS, numeric(33140001031), 'Lost plus two'],
        [PARIS, numeric(33149999902), 'Not held'],
      ]),
    );
    const column = info.sheets[0].columns.find((entry) => entry.name === 'Directory Number')?.id as number;
    const before = (await issues(t, info.id)).issues;
    expect(before.map((entry) => entry.suggestion?.value)).toEqual(['+33140001030', '+33140001031', '33149999902']);
    expect(before[0].suggestion?.label).toBe(
      "Store it as the text '+33140001030', as the inventory holds it (33140001030 -> +33140001030)",
    );
    expect(before[2].suggestion?.label).toMatch(/^Store it as the text '33149999902': a \+ or a leading 0 it may have had cannot be known/);

    const applied = await edit(t, info.id, info.revision, {
      op: 'apply_suggestions',
      sheet: 0,
      code: 'numeric-in-text-column',
      column_id: column,
    });
    expect(applied.changed).toBe(3);
    expect((await rows(t, info.id)).rows.map((row) => row.cells[String(column)])).toEqual(['+33140001030', '+33140001031', '33149999902']);
    expect((await issues(t, info.id)).issues).toEqual([]);

    const started = await t.call('POST', `/workstation/workbooks/${info.id}/load/`, { revision: applied.revision });
    expect(started.status, started.text).toBe(202);
    let loaded: WorkbookInfo = await settled(t, info.id);
    while (loaded.state === 'loading') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      loaded = await settled(t, info.id);
    }
    expect(loaded.load?.loaded).toBe(3);
    // The lines hold the inventory's numbers, which are Used now; no digits-only twin was made.
    expect(await inventoryStatus('+33140001030')).toBe('Used');
    expect(await inventoryStatus('+33140001031')).toBe('Used');
    expect(await linesWith('33140001030')).toBe(0);
    expect(await linesWith('+33140001030')).toBe(1);
  });

  it("offers the inventory's form for digits typed without its +", async () => {
    const { info } = await stage(t, await compactWorkbook('LineRelation', HEADER, [[PARIS, '33140001032', 'Typed']]));
    const [found] = (await issues(t, info.id)).issues;
    expect(found).toMatchObject({ code: 'number-form-differs', severity: 'warning' });
    expect(found.suggestion).toEqual({
      label: "Use '+33140001032', the inventory's number (33140001032 -> +33140001032)",
      value: '+33140001032',
    });
  });
});
