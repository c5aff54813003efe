import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { WorkbookIssueList, WorkbookList, WorkbookPlan, WorkbookRowPage } from '../../main/service/contract/workbook-api';
import { LINE_RELATION_HEADER } from '../fixtures/fixture-specs';
import { openSignedIn } from './app-page';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { useBrowser, useFlows } from './suite';
import { clickFirstCell, editChosenCell, press } from './workbook-grid';

/**
 * The workbook grid's rows as a user meets them (issue 29, points 4-6): a sheet whose file has
 * empty rows between its lines, so the grid's row numbers, the messages and the file's rows would
 * disagree if the grid counted 1..n; Next error and Find with no cell chosen.
 */
const shared = useBrowser('workbook-rows');

const PARIS = 'sys.hcs.Telco.Acme.Paris';

/** Excel row -> the row's cells (Hierarchy Node, Device, CFT Template, Directory Number, Alerting Name). */
type Placed = Record<number, string[]>;

/** An .xlsx of the LineRelation sheet with its lines at the Excel rows given, the rows between left empty. */
async function sheetWithGaps(name: string, rows: Placed): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('LineRelation');
  sheet.getRow(1).values = LINE_RELATION_HEADER;
  for (const [at, cells] of Object.entries(rows)) sheet.getRow(Number(at)).values = cells;
  const path = join(mkdtempSync(join(tmpdir(), 'workbook-rows-')), name);
  await workbook.xlsx.writeFile(path);
  return path;
}

/** Opens a file from the Workbooks area and waits until the grid shows it, checked. */
async function openInGrid(page: Page, path: string, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Workbooks' }).click();
  await page.getByLabel('Open .xlsx file').setInputFiles(path);
  await page.getByRole('heading', { name, exact: true }).waitFor();
  await page
    .getByTestId('workbook-state')
    .filter({ hasText: /error|ready/ })
    .waitFor();
  await page.locator('[role="grid"] [role="gridcell"]').first().waitFor({ state: 'attached' });
}

/** The grid's row numbers as its accessible table reads them out, top to bottom (the visible rows). */
async function gutterNumbers(page: Page): Promise<string[]> {
  const cells = page.locator('[role="grid"] [role="gridcell"][aria-colindex="1"]');
  // The empty rows shown after the last of a short sheet have no number: they are no rows yet.
  return (await cells.allTextContents()).map((text) => text.trim()).filter((text) => text !== '');
}

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: the workbook grid rows', { timeout: 90_000 }, (transport) => {
  const flows = useFlows(transport, shared);

  it('numbers each row as Excel does, the number its messages, the issue list and the plan use, filtered or not', async () => {
    const env = flows.env();
    const page = await openSignedIn(env, flows.context());
    const name = `gutter-${transport}.xlsx`;
    // The header in row 1, a blank row 4, rows 7-8 empty: the grid's 3rd row is Excel's row 6.
    const file = await sheetWithGaps(name, {
      2: [PARIS, 'SEP00AA00000001', '', '+33140001050', 'Alice Martin'],
      3: [PARIS, 'SEP00AA00000002', '', '+33140001051', 'Bruno Smith'],
      6: [PARIS, 'SEP00AA00000002', '', 'not a number', 'Chloé Dubois'],
      9: [PARIS, 'SEP00AA00000004', '', 'nor this', 'Denis Roy'],
    });
    await openInGrid(page, file, name);
    await page.locator('[role="grid"] [role="gridcell"]').filter({ hasText: /^9$/ }).waitFor({ state: 'attached' });
    expect(await gutterNumbers(page)).toEqual(['2', '3', '6', '9']);

    // The service's rows and issues say the same numbers.
    const list = await env.api.get<WorkbookList>('/workstation/workbooks/');
    const workbook = list.body.workbooks.find((candidate) => candidate.name === name);
    if (!workbook) throw new Error(`${name} is not listed`);
    const served = await env.api.get<WorkbookRowPage>(`/workstation/workbooks/${workbook.id}/sheets/0/rows/?limit=100`);
    expect(served.body.rows.map((row) => String(row.row))).toEqual(['2', '3', '6', '9']);
    const listed = await env.api.get<WorkbookIssueList>(`/workstation/workbooks/${workbook.id}/issues/`);
    const errors = listed.body.issues.filter((issue) => issue.severity === 'error');
    expect(errors.map((issue) => issue.row)).toEqual([6, 9]);

    // Next error: the message names the row the gutter shows beside the chosen cell.
    const cellIssues = page.getByTestId('cell-issues');
    await page.getByTestId('issue-panel').getByRole('button', { name: 'Next error ›' }).click();
    const first = cellIssues.locator('.cell-issue.error').filter({ hasText: /^D6 error:/ });
    await first.waitFor();
    expect(await first.textContent()).toContain(errors[0].message);
    expect(errors[0].message).toMatch(/^Row 6\b/);
    await screenshot(page, transport, 'workbook-gutter-excel-rows');

    // Only rows with errors: the gutter still says each row's Excel number.
    await page.getByTestId('issue-panel').getByRole('checkbox', { name: 'Only rows with errors' }).check();
    await page
      .getByTestId('filter-status')
      .filter({ hasText: /^2 rows listed/ })
      .waitFor();
    await expect.poll(() => gutterNumbers(page)).toEqual(['6', '9']);
    await screenshot(page, transport, 'workbook-gutter-only-errors');

    // The plan lists its rows by the same numbers.
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    await page.getByTestId('plan-totals').waitFor();
    const plan = await env.api.get<WorkbookPlan>(`/workstation/workbooks/${workbook.id}/plan/`);
    expect(plan.body.rows.map((row) => [row.row, row.action])).toEqual([
      [2, 'add'],
      [3, 'add'],
      [6, 'error'],
      [9, 'error'],
    ]);
  });

  it('marks a loaded row loaded, says an edit will modify its instance, never calls it its own duplicate, and loads the edit as that modify', async () => {
    const env = flows.env();
    const page = await openSignedIn(env, flows.context());
    const name = `loaded-${transport}.xlsx`;
    const file = await sheetWithGaps(name, {
      2: [PARIS, 'SEP00AA00000001', '', '+33140001024', 'Alice Martin'],
      4: [PARIS, 'SEP00AA00000002', '', '+33140001025', 'Bruno Smith'],
    });
    await openInGrid(page, file, name);
    const state = page.getByTestId('workbook-state');
    const counts = page.getByTestId('workbook-counts');
    await state.filter({ hasText: /^ready/ }).waitFor();
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await state.filter({ hasText: /^loaded 2\/2/ }).waitFor();
    await expect.poll(() => page.getByRole('progressbar', { name: 'Load progress' }).getAttribute('aria-valuetext')).toBe('2 of 2 loaded');

    // Row 4's Alerting Name (E4): chosen, it says it is loaded before anything is typed.
    await clickFirstCell(page, 'A2');
    await press(page, 'ArrowRight', 4);
    await press(page, 'ArrowDown');
    const cellIssues = page.getByTestId('cell-issues');
    await cellIssues.filter({ hasText: /^E4\b/ }).waitFor();
    const note = page.getByTestId('loaded-note');
    await note.filter({ hasText: /^Row 4 is loaded: it is \+\d+ \(open it\)/ }).waitFor();
    expect(await note.textContent()).toContain('A change to this row is loaded as a modify of that instance by the next Load.');
    await screenshot(page, transport, 'workbook-loaded-row-chosen');

    // Edited: a warning that Load will modify that instance, no error; Load is offered again.
    await editChosenCell(page, 'Bruno Renamed');
    await counts.filter({ hasText: /0 errors, 1 warning$/ }).waitFor();
    const warning = cellIssues.locator('.cell-issue.warning');
    await warning.filter({ hasText: /^E4 warning: Row 4, .*this row is loaded .*Load will modify that instance/ }).waitFor();
    expect(await warning.textContent()).toContain("alertingName: 'Bruno Smith' -> 'Bruno Renamed'");
    await page
      .getByTestId('load-changed')
      .filter({ hasText: /^1 loaded row changed since: Load modifies its instance\.$/ })
      .waitFor();
    await screenshot(page, transport, 'workbook-loaded-row-edited');

    // Undone: the row is the line it made again, not its duplicate.
    await page.getByRole('button', { name: 'Undo' }).click();
    await counts.filter({ hasText: /0 errors, 0 warnings$/ }).waitFor();
    await page.getByTestId('issue-panel').getByRole('heading', { name: 'Issues 0' }).waitFor();
    expect(await page.getByTestId('load-changed').count()).toBe(0);

    // Redone, planned (a modify, the other row unchanged) and loaded: the same line renamed, no second one.
    await page.getByRole('button', { name: 'Redo' }).click();
    await counts.filter({ hasText: /0 errors, 1 warning$/ }).waitFor();
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    await page
      .getByTestId('plan-totals')
      .filter({ hasText: /0 add, 1 modify, 0 delete, 1 unchanged, 0 conflict, 0 error/ })
      .waitFor();
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await state.filter({ hasText: /^loaded 2\/2/ }).waitFor();
    await counts.filter({ hasText: /0 errors, 0 warnings$/ }).waitFor();
    const lines = await env.api.get<{ resources: { data: { alertingName?: string } }[] }>(
      `/api/relation/LineRelation/?hierarchy=${encodeURIComponent(PARIS)}&summary=false&filter_field=pattern&filter_condition=equals&filter_text=${encodeURIComponent('+33140001025')}`,
    );
    expect(lines.body.resources.map((line) => line.data.alertingName)).toEqual(['Bruno Renamed']);
    expect(await page.getByRole('button', { name: 'Load', exact: true }).isDisabled()).toBe(true);

    // Its duplicate: no row in error; each says it is loaded, as which instance and by which workbook.
    await page.getByRole('button', { name: '‹ Workbooks' }).click();
    const listed = page.getByRole('table', { name: 'Workbooks' }).locator('tbody tr');
    await listed
      .filter({ hasText: name })
      .first()
      .getByRole('button', { name: `Duplicate ${name}` })
      .click();
    const copyName = `${name} (copy)`;
    const copy = listed.filter({ hasText: copyName }).first();
    await copy
      .locator('.pill')
      .filter({ hasText: /^ready/ })
      .waitFor();
    await copy.getByRole('button', { name: copyName, exact: true }).click();
    await counts.filter({ hasText: /^2 rows, 0 errors, 0 warnings$/ }).waitFor();
    await expect.poll(() => page.getByRole('progressbar', { name: 'Load progress' }).getAttribute('aria-valuetext')).toBe('2 of 2 loaded');
    await page
      .locator('[role="grid"] [role="gridcell"]')
      .filter({ hasText: /^loaded$/ })
      .nth(1)
      .waitFor({ state: 'attached' });
    await clickFirstCell(page, 'A2');
    await press(page, 'ArrowRight', 4);
    await press(page, 'ArrowDown');
    await note.filter({ hasText: /^Row 4 is loaded: it is \+\d+ \(open it\)/ }).waitFor();
    expect(await cellIssues.getByTestId('row-outcome').textContent()).toContain(`Loaded by workbook '${name}'`);
    expect(await page.getByRole('button', { name: 'Load', exact: true }).isDisabled()).toBe(true);
    await screenshot(page, transport, 'workbook-duplicate-of-loaded');
  });

  it('goes to the first error on Next error with no cell chosen, and to the last on Previous error, with no refusal', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    const name = `next-error-${transport}.xlsx`;
    // Numbers no other test takes (the e2e files share one store): row 2 must stay clean, D6's fix must be free.
    const clean = transport === 'http' ? '+33140001081' : '+33140001083';
    const fixed = transport === 'http' ? '+33140001082' : '+33140001084';
    const file = await sheetWithGaps(name, {
      2: [PARIS, 'SEP00AA00000001', '', clean, 'Alice Martin'],
      6: [PARIS, 'SEP00AA00000002', '', 'not a number', 'Bruno Smith'],
      9: [PARIS, 'SEP00AA00000002', '', 'nor this', 'Chloé Dubois'],
    });
    await openInGrid(page, file, name);
    const cellIssues = page.getByTestId('cell-issues');
    const panel = page.getByTestId('issue-panel');
    await panel.getByRole('button', { name: 'Next error ›' }).click();
    // The first error of the sheet: Excel row 6, its Directory Number in column D.
    await cellIssues
      .locator('.cell-issue.error')
      .filter({ hasText: /^D6 error:/ })
      .waitFor();
    await screenshot(page, transport, 'workbook-next-error-no-cell');
    expect(await page.locator('.fault').count()).toBe(0);
    // The keys are on that cell: Enter edits D6, the cell shown, and no other.
    await editChosenCell(page, fixed);
    await page
      .getByTestId('workbook-counts')
      .filter({ hasText: / 1 error,/ })
      .waitFor();
    const listed = (await flows.env().api.get<WorkbookList>('/workstation/workbooks/')).body.workbooks.find((w) => w.name === name);
    const served = await flows.env().api.get<WorkbookRowPage>(`/workstation/workbooks/${listed?.id ?? ''}/sheets/0/rows/?limit=10`);
    expect(served.body.rows.map((row) => [row.row, row.cells['4']])).toEqual([
      [2, clean],
      [6, fixed],
      [9, 'nor this'],
    ]);
    await page.getByRole('button', { name: 'Undo' }).click();
    await page
      .getByTestId('workbook-counts')
      .filter({ hasText: / 2 errors,/ })
      .waitFor();

    // A fresh view, no cell chosen again: Previous error goes to the last one.
    await page.getByRole('button', { name: '‹ Workbooks' }).click();
    await page
      .getByRole('table', { name: 'Workbooks' })
      .locator('tbody tr')
      .filter({ hasText: name })
      .first()
      .getByRole('button', { name, exact: true })
      .click();
    await page.locator('[role="grid"] [role="gridcell"]').first().waitFor({ state: 'attached' });
    await panel.getByRole('button', { name: '‹ Previous error' }).click();
    await cellIssues
      .locator('.cell-issue.error')
      .filter({ hasText: /^D9 error:/ })
      .waitFor();
    // Wrapping past the last error (the service's `after` is never -1): back to the first.
    await panel.getByRole('button', { name: 'Next error ›' }).click();
    await cellIssues
      .locator('.cell-issue.error')
      .filter({ hasText: /^D6 error:/ })
      .waitFor();
    expect(await page.locator('.fault').count()).toBe(0);

    // Find, again from a fresh view with no cell chosen: Enter finds the first match, Shift+Enter the one before it.
    await page.getByRole('button', { name: '‹ Workbooks' }).click();
    await page
      .getByRole('table', { name: 'Workbooks' })
      .locator('tbody tr')
      .filter({ hasText: name })
      .first()
      .getByRole('button', { name, exact: true })
      .click();
    await page.locator('[role="grid"] [role="gridcell"]').first().waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Find & replace' }).click();
    const findBox = page.getByRole('search', { name: 'Find and replace' });
    await findBox.getByRole('searchbox').fill('SEP00AA');
    await findBox.getByRole('searchbox').press('Enter');
    await cellIssues.filter({ hasText: /^B2: no issue/ }).waitFor();
    await findBox.getByRole('searchbox').press('Shift+Enter');
    await cellIssues.filter({ hasText: /^B9\b/ }).waitFor();
    expect(await findBox.getByRole('status').textContent()).toBe('');
    expect(await page.locator('.fault').count()).toBe(0);
  });
});
