import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openSignedIn } from './app-page';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { useBrowser, useFlows } from './suite';
import { cellWith, clickFirstCell, editChosenCell, FIXTURE, openFixtureInGrid, pasteFromSpreadsheet, press } from './workbook-grid';

const shared = useBrowser('workbooks');

function workbookRow(page: Page, name: string) {
  return page.getByRole('table', { name: 'Workbooks' }).locator('tbody tr').filter({ hasText: name });
}

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: the Workbooks area', { timeout: 60_000 }, (transport) => {
  const flows = useFlows(transport, shared);

  it('opens an .xlsx file as a staged workbook, starts one from a template, and deletes one', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Workbooks' }).click();
    await page.getByRole('heading', { name: /Workbooks/ }).waitFor();

    await page.getByLabel('Open .xlsx file').setInputFiles(FIXTURE);
    // Opening a file opens it: its grid, once staged and checked.
    await page.getByRole('heading', { name: 'line-relation-libreoffice.xlsx', exact: true }).waitFor();
    await page
      .getByTestId('workbook-state')
      .filter({ hasText: /error|ready/ })
      .waitFor();
    await page.locator('[role="grid"] [role="gridcell"]').first().waitFor({ state: 'attached' });
    await page.getByRole('button', { name: '‹ Workbooks' }).click();
    const opened = workbookRow(page, 'line-relation-libreoffice.xlsx');
    // Staged and checked: the state says how many errors the file has (the fixture holds some).
    await opened
      .locator('.pill')
      .filter({ hasText: /error|ready/ })
      .waitFor();
    expect(await opened.locator('td').nth(4).textContent()).toBe('admin');
    await screenshot(page, transport, 'workbooks-list');

    await page.getByLabel('Template model').selectOption('relation/LineRelation');
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByRole('heading', { name: 'LineRelation-template.xlsx', exact: true }).waitFor();
    await page.getByRole('button', { name: '‹ Workbooks' }).click();
    const template = workbookRow(page, 'LineRelation-template.xlsx');
    await template.locator('.pill').filter({ hasText: /ready/ }).waitFor();
    expect(await template.locator('td').nth(2).textContent()).toBe('0');

    // Deleting asks first, naming the workbook and its rows; Cancel keeps it.
    await template.getByRole('button', { name: 'Delete LineRelation-template.xlsx' }).click();
    const asked = page.getByRole('alertdialog', { name: 'Delete a workbook' });
    expect(await asked.textContent()).toContain('Delete the workbook LineRelation-template.xlsx, with its 0 rows?');
    await screenshot(page, transport, 'workbook-delete-asked');
    await asked.getByRole('button', { name: 'Cancel' }).click();
    await asked.waitFor({ state: 'detached' });
    expect(await template.count()).toBe(1);
    await template.getByRole('button', { name: 'Delete LineRelation-template.xlsx' }).click();
    await asked.getByRole('button', { name: 'Delete' }).click();
    await template.waitFor({ state: 'detached' });
    expect(await workbookRow(page, 'line-relation-libreoffice.xlsx').count()).toBe(1);

    // Duplicate: a copy checked anew, with the same rows; deleted again, the original stays.
    const rowCount = await opened.locator('td').nth(2).textContent();
    await opened.getByRole('button', { name: 'Duplicate line-relation-libreoffice.xlsx' }).click();
    const copy = workbookRow(page, 'line-relation-libreoffice.xlsx (copy)');
    await copy
      .locator('.pill')
      .filter({ hasText: /error|ready/ })
      .waitFor();
    expect(await copy.locator('td').nth(2).textContent()).toBe(rowCount);
    await copy.getByRole('button', { name: 'Delete line-relation-libreoffice.xlsx (copy)' }).click();
    await page.getByRole('alertdialog', { name: 'Delete a workbook' }).getByRole('button', { name: 'Delete' }).click();
    await copy.waitFor({ state: 'detached' });
    expect(await workbookRow(page, 'line-relation-libreoffice.xlsx').count()).toBe(1);
  });

  it('stages an .xlsx dropped anywhere on the window and opens it', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Resources' }).click();
    // As the system does on a drop from the desktop: a DataTransfer carrying the file, on the view shown.
    const base64 = readFileSync(FIXTURE).toString('base64');
    await page.evaluate(`(() => {
      const text = atob('${base64}');
      const bytes = new Uint8Array(text.length);
      for (let at = 0; at < text.length; at += 1) bytes[at] = text.charCodeAt(at);
      const carried = new DataTransfer();
      carried.items.add(new File([bytes], 'dropped-lines.xlsx'));
      const target = document.querySelector('main.content');
      for (const type of ['dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: carried, bubbles: true, cancelable: true }));
    })()`);
    // It opens where it was dropped: its grid, once staged.
    await page.getByRole('heading', { name: 'dropped-lines.xlsx', exact: true }).waitFor();
    await page
      .getByTestId('workbook-state')
      .filter({ hasText: /error|ready/ })
      .waitFor();
    await page.getByRole('button', { name: '‹ Workbooks' }).click();
    const dropped = workbookRow(page, 'dropped-lines.xlsx');
    await dropped
      .locator('.pill')
      .filter({ hasText: /error|ready/ })
      .waitFor();
    expect(await dropped.locator('td').nth(2).textContent()).toBe('6');
    await dropped.getByRole('button', { name: 'Delete dropped-lines.xlsx' }).click();
    await page.getByRole('alertdialog', { name: 'Delete a workbook' }).getByRole('button', { name: 'Delete' }).click();
    await dropped.waitFor({ state: 'detached' });
  });

  it("takes typing and a paste in a new template's first empty rows", async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Workbooks' }).click();
    await page.getByLabel('Template model').selectOption('relation/LineRelation');
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByRole('heading', { name: 'LineRelation-template.xlsx', exact: true }).waitFor();
    const counts = page.getByTestId('workbook-counts');
    await counts.filter({ hasText: /^0 rows/ }).waitFor();
    // The first empty row (row 5, under the directive's four) takes typing: the value becomes the sheet's first row.
    await clickFirstCell(page, 'A5');
    await editChosenCell(page, 'sys.hcs.Telco.Acme.Paris');
    await counts.filter({ hasText: /^1 row,/ }).waitFor();
    await cellWith(page, 'sys\\.hcs\\.Telco\\.Acme\\.Paris').waitFor({ state: 'attached' });
    // A block pasted below it is added after it.
    await press(page, 'ArrowDown');
    await pasteFromSpreadsheet(page, 'sys.hcs.Telco.Acme.London\r\nsys.hcs.Telco.Acme.Paris\r\n');
    await counts.filter({ hasText: /^3 rows,/ }).waitFor();
    await screenshot(page, transport, 'workbook-template-typed');
    await page.getByRole('button', { name: '‹ Workbooks' }).click();
    const template = workbookRow(page, 'LineRelation-template.xlsx').first();
    await template.getByRole('button', { name: 'Delete LineRelation-template.xlsx' }).click();
    await page.getByRole('alertdialog', { name: 'Delete a workbook' }).getByRole('button', { name: 'Delete' }).click();
  });

  it('shows why a file was refused where it was opened, and what to do, with the way back', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Workbooks' }).click();
    await page.getByLabel('Open .xlsx file').setInputFiles(join(__dirname, '..', 'fixtures', 'hostile-encrypted.xlsx'));
    const refusal = page.getByRole('alert').filter({ hasText: 'hostile-encrypted.xlsx could not be opened' });
    await refusal.waitFor();
    // The reason itself, not a tooltip, and what to do about it.
    expect(await refusal.textContent()).toMatch(/encrypted|password/i);
    expect(await refusal.textContent()).toContain('open it again');
    await screenshot(page, transport, 'workbook-refused');
    await refusal.getByRole('button', { name: 'Open another file' }).click();
    await page.getByLabel('Open .xlsx file').waitFor({ state: 'attached' });
  });

  it('opens a workbook in the grid, shows its cells and issues, and takes an edit typed into a cell, then undoes it', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await openFixtureInGrid(page);
    const counts = page.getByTestId('workbook-counts');
    const before = (await counts.textContent()) ?? '';
    expect(before).toMatch(/ 0 errors/);
    // As a user does: click the first row's first cell, arrow over to the directory number, type, Enter.
    await clickFirstCell(page);
    await press(page, 'ArrowRight', 3);
    await editChosenCell(page, 'not a number');
    await cellWith(page, 'not a number').waitFor({ state: 'attached' });
    await counts.filter({ hasText: / 1 error,/ }).waitFor();
    await screenshot(page, transport, 'workbook-grid-edited');
    await page.getByRole('button', { name: 'Undo' }).click();
    await cellWith(page, '\\+33140001050').waitFor({ state: 'attached' });
    await counts.filter({ hasText: before }).waitFor();
  });

  it('plans and loads a workbook from the grid, with the load counts, and saves it with its issues', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await openFixtureInGrid(page);
    await page.locator('[role="grid"]').waitFor({ state: 'attached' });

    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    const totals = page.getByTestId('plan-totals');
    await totals.waitFor();
    expect(await totals.textContent()).toMatch(/plan: \d+ add/);

    await page.getByRole('button', { name: 'Load', exact: true }).click();
    // Every row runs: the state ends as loaded n/6 (rows the store refuses are counted as failed).
    const state = page.getByTestId('workbook-state');
    await state.filter({ hasText: /loaded \d+\/6/ }).waitFor();
    expect(await page.getByRole('progressbar', { name: 'Load progress' }).getAttribute('value')).toBe('6');
    await screenshot(page, transport, 'workbook-loaded');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save with issues' }).click();
    expect((await download).suggestedFilename()).toBe('line-relation-libreoffice with issues.xlsx');
    // The issues alone, as a report to send: CSV and .xlsx from the Issues panel.
    const report = page.waitForEvent('download');
    await page.getByTestId('issue-panel').getByRole('button', { name: 'CSV' }).click();
    const csv = await report;
    expect(csv.suggestedFilename()).toBe('line-relation-libreoffice issues.csv');
    expect(readFileSync((await csv.path()) ?? '', 'utf8')).toMatch(/^\uFEFFSheet,Row,Column,Severity,Code,Message\r\n/);
  });
});
