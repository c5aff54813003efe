import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { WorkbookList, WorkbookRowPage } from '../../main/service/contract/workbook-api';
import { openSignedIn, PARIS } from './app-page';
import { TRANSPORTS } from './environment';
import { screenshot } from './browser';
import { useBrowser, useFlows } from './suite';
import { cellWith, clickFirstCell, clickGrid, gridBox } from './workbook-grid';

/**
 * Nothing wrong passes silently, as a user sees it in the grid (issue 29, points 1 to 3): spaces
 * around a device and a misspelt Usage are errors whose message quotes the value and whose fix
 * is offered (the trimmed name, the nearest choice); a directory number Excel stored as a
 * number is fixed to the inventory's +33... form, which the fix's label shows, and another the
 * inventory does not hold to the form of the sheet's other numbers; Apply to all lists both
 * changes before it applies them. Each fix applied reaches the service's cells.
 */
const shared = useBrowser('workbook-value-checks');
const NAME = 'value-checks.xlsx';
const folder = mkdtempSync(join(tmpdir(), 'ws-e2e-values-'));
const FILE = join(folder, NAME);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function writeBook(): Promise<void> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('LineRelation');
  sheet.addRow(['Hierarchy Node', 'Device', 'Directory Number', 'Alerting Name', 'Usage']);
  sheet.addRow([PARIS, 'SEP00AA00000001 ', '+33140001060', 'Spaces', null]);
  sheet.addRow([PARIS, null, '+33140001061', 'Typo', 'Devise']);
  sheet.addRow([PARIS, null, 33140001062, 'Lost plus', null]);
  // Not in the inventory: its + comes back from the form the sheet's other numbers are written in.
  sheet.addRow([PARIS, null, 33149999980, 'Sheet form', null]);
  await book.xlsx.writeFile(FILE);
}

async function openBook(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Workbooks' }).click();
  await page.getByLabel('Open .xlsx file').setInputFiles(FILE);
  await page
    .getByTestId('workbook-state')
    .filter({ hasText: /error|ready/ })
    .waitFor();
  await cellWith(page, 'Spaces').waitFor({ state: 'attached' });
}

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: values the call manager would refuse', { timeout: 90_000 }, (transport) => {
  const flows = useFlows(transport, shared, () => writeBook());

  it('shows each problem with the value it judged and its fix, and applies the fixes', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await openBook(page);
    const cellIssues = page.getByTestId('cell-issues');
    const fixes = cellIssues.getByTestId('cell-fixes');

    // From the first cell, F8 goes to the device with a space after it.
    await clickFirstCell(page);
    await page.keyboard.press('F8');
    await cellIssues.filter({ hasText: "'SEP00AA00000001 ' has spaces around it" }).waitFor();
    await fixes.filter({ hasText: 'Remove the spaces around it' }).waitFor();
    await page.keyboard.press('Control+.');
    await cellWith(page, 'SEP00AA00000001').waitFor({ state: 'attached' });

    // The next error: Usage 'Devise', whose nearest choice is Device.
    await page.keyboard.press('F8');
    await cellIssues.filter({ hasText: "'Devise' is not one of the allowed values" }).waitFor();
    await fixes.filter({ hasText: "Use 'Device'" }).waitFor();
    await page.keyboard.press('Control+.');
    await cellWith(page, 'Device').waitFor({ state: 'attached' });

    // The number Excel stored without its +, a warning: its cell (C4, two rows below the first
    // row's Directory Number) shows the inventory's form in the fix before it is applied.
    // Where the grid is now: the toolbar above it may have wrapped since it was first measured.
    const now = await gridBox(page);
    await clickGrid(page, now.x + 370, now.y + 46);
    await cellIssues.filter({ hasText: /^C2\b/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await cellIssues.filter({ hasText: /^C3\b/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await cellIssues.filter({ hasText: /^C4\b/ }).waitFor();
    await fixes.filter({ hasText: '(33140001062 -> +33140001062)' }).waitFor();
    // Apply to all 2 like it lists what each cell becomes, and changes nothing until confirmed.
    await fixes.getByRole('button', { name: 'Apply to all 2 like it' }).click();
    const preview = fixes.getByTestId('fix-preview');
    await preview.filter({ hasText: 'Row 4: 33140001062 -> +33140001062' }).waitFor();
    await preview.filter({ hasText: 'Row 5: 33149999980 -> +33149999980' }).waitFor();
    await screenshot(page, transport, 'apply-to-all-preview');
    await preview.getByRole('button', { name: 'Apply these 2 changes' }).click();
    await cellWith(page, '\\+33140001062').waitFor({ state: 'attached' });
    await cellWith(page, '\\+33149999980').waitFor({ state: 'attached' });

    const env = flows.env();
    const list = await env.api.get<WorkbookList>('/workstation/workbooks/');
    const workbook = list.body.workbooks.find((candidate) => candidate.name === NAME);
    if (!workbook) throw new Error('the workbook is not listed');
    const page0 = await env.api.get<WorkbookRowPage>(`/workstation/workbooks/${workbook.id}/sheets/0/rows/?limit=10`);
    expect(page0.body.rows.map((row) => Object.values(row.cells).map(String))).toEqual([
      [PARIS, 'SEP00AA00000001', '+33140001060', 'Spaces'],
      [PARIS, '+33140001061', 'Typo', 'Device'],
      [PARIS, '+33140001062', 'Lost plus'],
      [PARIS, '+33149999980', 'Sheet form'],
    ]);
    expect(page0.body.rows.flatMap((row) => row.issues)).toEqual([]);
  });
});
