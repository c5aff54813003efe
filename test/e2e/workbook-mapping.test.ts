import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WorkbookList, WorkbookRowPage } from '../../main/service/contract/workbook-api';
import { openSignedIn } from './app-page';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { useBrowser, useFlows } from './suite';
import { cellWith } from './workbook-grid';

/**
 * A customer's own sheet in the app (issue "Customer sheets in any shape", points 1, 4 and 6): a
 * French site survey opened from the Workbooks view is not refused but shows the mapping step
 * where the grid will be: each column with its first values, the field proposed for it and why.
 * The engineer corrects one proposal (the comment is not loaded), keeps the E.164 transform of
 * the local numbers, confirms, and the grid shows the lines at the site with +33 numbers; the
 * workbook is then planned and loaded as any other.
 */
const shared = useBrowser('workbook-mapping');
const folder = mkdtempSync(join(tmpdir(), 'ws-e2e-mapping-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function writeSurvey(file: string, first: number): Promise<void> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Relevé du site');
  sheet.addRow(['Site', 'Numéro', 'Nom affiché', 'Commentaire']);
  for (let i = 0; i < 3; i += 1) sheet.addRow(['Paris', `01 49 98 ${first + i} 00`, `Poste ${first + i}`, `bureau ${i}`]);
  await book.xlsx.writeFile(file);
}

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: a customer sheet mapped', { timeout: 90_000 }, (transport) => {
  const flows = useFlows(transport, shared, () => Promise.resolve());

  it('shows the mapping step instead of refusing the sheet, and stages, plans and loads it once confirmed', async () => {
    const first = transport === 'http' ? 10 : 20;
    const name = `survey-${transport}.xlsx`;
    const file = join(folder, name);
    await writeSurvey(file, first);
    const page = await openSignedIn(flows.env(), flows.context());
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Workbooks' }).click();
    // Opened, the customer's sheet shows its mapping step where the grid will be.
    await page.getByLabel('Open .xlsx file').setInputFiles(file);
    await page.getByTestId('workbook-state').filter({ hasText: 'columns to map' }).waitFor();

    const mapping = page.getByRole('table', { name: 'Column mapping' });
    await mapping.waitFor();
    await expect.poll(() => mapping.locator('tbody tr').count()).toBe(4);
    // Each source column with its first values and the field proposed for it.
    await mapping
      .locator('tr')
      .filter({ hasText: 'Numéro' })
      .filter({ hasText: `01 49 98 ${first} 00` })
      .waitFor();
    await expect.poll(() => page.getByLabel('Target of Numéro').inputValue()).toBe('pattern');
    await expect.poll(() => page.getByLabel('Target of Site').inputValue()).toBe('#Hierarchy Node');
    await screenshot(page, transport, 'mapping-step');
    // As on a 1280x720 laptop, in dark mode: the step stays usable (looked at by hand).
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, transport, 'mapping-step-1280-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });

    // The engineer's correction: the comment is not loaded. The numbers keep their E.164 transform.
    await page.getByLabel('Target of Commentaire').selectOption('');
    const e164 = mapping
      .locator('tr')
      .filter({ hasText: 'Numéro' })
      .getByLabel(/E\.164/);
    // The preview shows the rows as they will be staged, and follows the transforms.
    const preview = page.getByRole('table', { name: 'Mapping preview' });
    if (await e164.isChecked()) await e164.uncheck();
    await preview
      .locator('td')
      .filter({ hasText: `01 49 98 ${first} 00` })
      .waitFor();
    await e164.check();
    await preview
      .locator('td')
      .filter({ hasText: `+3314998${first}00` })
      .waitFor();
    await screenshot(page, transport, 'mapping-preview');
    await page.getByLabel('Save mapping as').fill(`Survey ${transport}`);
    await page.getByRole('button', { name: 'Confirm mapping' }).click();

    const state = page.getByTestId('workbook-state');
    await state.filter({ hasText: /^ready/ }).waitFor();
    await cellWith(page, `\\+3314998${first}00`).waitFor({ state: 'attached' });
    await screenshot(page, transport, 'mapping-confirmed');

    const env = flows.env();
    const list = await env.api.get<WorkbookList>('/workstation/workbooks/');
    const workbook = list.body.workbooks.find((candidate) => candidate.name === name);
    if (!workbook) throw new Error('the workbook is not listed');
    const rows = await env.api.get<WorkbookRowPage>(`/workstation/workbooks/${workbook.id}/sheets/0/rows/?limit=10`);
    expect(rows.body.rows.map((row) => Object.values(row.cells).map(String))).toEqual(
      [0, 1, 2].map((i) => ['sys.hcs.Telco.Acme.Paris', `+3314998${first + i}00`, `Poste ${first + i}`]),
    );

    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    await state.filter({ hasText: /^planned/ }).waitFor();
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await state.filter({ hasText: /^loaded 3\/3/ }).waitFor();
    await screenshot(page, transport, 'mapping-loaded');

    // The mapping can be reopened from the grid.
    await page.getByRole('button', { name: 'Mapping', exact: true }).click();
    await mapping.waitFor();
    await page.getByRole('button', { name: '‹ Back to the grid' }).click();
    await cellWith(page, `\\+3314998${first}00`).waitFor({ state: 'attached' });
  });
});
