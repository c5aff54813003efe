import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LINE_RELATION_HEADER } from '../fixtures/fixture-specs';
import { openSignedIn } from './app-page';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { useBrowser, useFlows } from './suite';

/**
 * The workbook grid's rows as a user meets them (issue 29, points 4-6): a sheet whose file has
 * empty rows between its lines, so the grid's row numbers, the messages and the file's rows would
 * disagree if the grid counted 1..n; Next error with no cell chosen.
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
  const listed = page.getByRole('table', { name: 'Workbooks' }).locator('tbody tr').filter({ hasText: name }).first();
  await listed
    .locator('.pill')
    .filter({ hasText: /error|ready/ })
    .waitFor();
  await listed.getByRole('button', { name, exact: true }).click();
  await page.locator('[role="grid"] [role="gridcell"]').first().waitFor({ state: 'attached' });
}

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: the workbook grid rows', { timeout: 90_000 }, (transport) => {
  const flows = useFlows(transport, shared);

  it('goes to the first error on Next error with no cell chosen, and to the last on Previous error, with no refusal', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    const name = `next-error-${transport}.xlsx`;
    const file = await sheetWithGaps(name, {
      2: [PARIS, 'SEP00AA00000001', '', '+33140001050', 'Alice Martin'],
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
