import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WorkbookInfo, WorkbookList, WorkbookRowPage } from '../../main/service/contract/workbook-api';
import { openSignedIn } from './app-page';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { useBrowser, useFlows } from './suite';
import { cellWith } from './workbook-grid';

/**
 * An HR export with one sheet per site (issue "Customer sheets in any shape", points 3 and 6):
 * "Name, User ID, Office, Extension, Phone MAC, Phone model" on a Paris sheet and a London sheet.
 * The proposal takes the Office column for the site; the engineer corrects it (not loaded) and
 * says each sheet is a site instead, keeps the full names split into first and last names, puts
 * the names in Title Case, maps the two phone model words, keeps the E.164 transform (Paris +33,
 * London +44, from each sheet's site), confirms, plans and loads. Keyboard only for the choices.
 */
const shared = useBrowser('workbook-mapping-sites');
const folder = mkdtempSync(join(tmpdir(), 'ws-e2e-mapping-sites-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const HEADER = ['Name', 'User ID', 'Office', 'Extension', 'Phone MAC', 'Phone model'];

async function writeExport(file: string, n: number, tag: string): Promise<void> {
  const book = new ExcelJS.Workbook();
  const paris = book.addWorksheet('Paris');
  paris.addRow(HEADER);
  paris.addRow(['ANNE MARTIN', `amartin${tag}`, 'B12', `01 40 00 ${n} 01`, `00:1B:54:AB:${n}:01`, '8845']);
  paris.addRow(['PAUL DURAND', `pdurand${tag}`, 'B14', `01 40 00 ${n} 02`, `00:1B:54:AB:${n}:02`, 'Desk']);
  const london = book.addWorksheet('London');
  london.addRow(HEADER);
  london.addRow(['JOHN SMITH', `jsmith${tag}`, 'C3', `020 7940 ${n}03`, `00:1B:54:AB:${n}:03`, '8845']);
  await book.xlsx.writeFile(file);
}

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: an HR export with a sheet per site mapped', { timeout: 90_000 }, (transport) => {
  const flows = useFlows(transport, shared, () => Promise.resolve());

  it('corrects the site, splits the names, maps two values, and loads each sheet at its site', async () => {
    const n = transport === 'http' ? 52 : 62;
    const name = `hr-sites-${transport}.xlsx`;
    const file = join(folder, name);
    await writeExport(file, n, transport);
    const page = await openSignedIn(flows.env(), flows.context());
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Workbooks' }).click();
    // Opened, the customer's sheet shows its mapping step where the grid will be.
    await page.getByLabel('Open .xlsx file').setInputFiles(file);
    await page.getByTestId('workbook-state').filter({ hasText: 'columns to map' }).waitFor();
    await page.getByRole('table', { name: 'Column mapping' }).waitFor();

    // The proposal: Office as the site, the full names split in two.
    await expect.poll(() => page.getByLabel('Target of Office').inputValue()).toBe('#Hierarchy Node');
    await expect.poll(() => page.getByLabel('Split 1, part 1').inputValue()).toBe('firstname');
    await expect.poll(() => page.getByLabel('Split 1, part 2 (and the rest)').inputValue()).toBe('lastname');
    const sites = page.getByLabel(/Each sheet is a site/);
    expect(await sites.isChecked()).toBe(false);

    // The engineer's corrections, by keyboard: the office is no site; each sheet is one.
    await page.getByLabel('Target of Office').focus();
    await page.getByLabel('Target of Office').selectOption('');
    await sites.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => sites.isChecked()).toBe(true);
    await page.getByLabel('Case of Name').selectOption('title');
    // Two values of the phone model: the proposal's 8845 kept as Cisco 8845, "Desk" given one.
    await expect.poll(() => page.getByLabel('Phone model: 8845 becomes').inputValue()).toBe('Cisco 8845');
    await page.getByLabel('Phone model: Desk becomes').fill('Cisco 7841');
    const e164 = page
      .getByRole('table', { name: 'Column mapping' })
      .locator('tr')
      .filter({ hasText: 'Extension' })
      .getByLabel(/E\.164/);
    expect(await e164.isChecked()).toBe(true);

    const preview = page.getByRole('table', { name: 'Mapping preview' });
    await preview
      .locator('td')
      .filter({ hasText: /^Anne Martin$/ })
      .waitFor();
    await preview
      .locator('td')
      .filter({ hasText: /^Martin$/ })
      .waitFor();
    await preview
      .locator('td')
      .filter({ hasText: `+3314000${n}01` })
      .waitFor();
    await preview.locator('td').filter({ hasText: 'Cisco 7841' }).waitFor();
    await screenshot(page, transport, 'mapping-sites-step');
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, transport, 'mapping-sites-step-1280-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.getByRole('button', { name: 'Confirm mapping' }).click();
    const state = page.getByTestId('workbook-state');
    await state.filter({ hasText: /^ready/ }).waitFor();
    await cellWith(page, `\\+3314000${n}01`).waitFor({ state: 'attached' });
    await screenshot(page, transport, 'mapping-sites-confirmed');

    const env = flows.env();
    const list = await env.api.get<WorkbookList>('/workstation/workbooks/');
    const workbook = list.body.workbooks.find((candidate) => candidate.name === name);
    if (!workbook) throw new Error('the workbook is not listed');
    const one = await env.api.get<{ workbook: WorkbookInfo }>(`/workstation/workbooks/${workbook.id}/`);
    expect(one.body.workbook.sheets.map((sheet) => sheet.name)).toEqual(['Bundle', '#source', 'Bundle (2)', '#source (2)']);
    const london = await env.api.get<WorkbookRowPage>(`/workstation/workbooks/${workbook.id}/sheets/2/rows/?limit=10`);
    expect(Object.values(london.body.rows[0].cells).map(String)).toEqual([
      'sys.hcs.Telco.Acme.London',
      'John Smith',
      `jsmith${transport}`,
      `+44207940${n}03`,
      `SEP001B54AB${n}03`,
      'Cisco 8845',
      'John',
      'Smith',
    ]);

    // The mapping changed again (the names as the customer wrote them), then taken back by Undo.
    await page.getByRole('button', { name: 'Mapping', exact: true }).click();
    await page.getByLabel('Case of Name').selectOption('');
    await page.getByRole('button', { name: 'Confirm mapping' }).click();
    await state.filter({ hasText: /^ready/ }).waitFor();
    await cellWith(page, 'ANNE MARTIN').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Undo' }).click();
    await cellWith(page, 'Anne Martin').waitFor({ state: 'attached' });
    await state.filter({ hasText: /^ready/ }).waitFor();
    await screenshot(page, transport, 'mapping-sites-undone');

    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    await state.filter({ hasText: /^planned/ }).waitFor();
    await screenshot(page, transport, 'mapping-sites-planned');
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await state.filter({ hasText: /^loaded 3\/3/ }).waitFor();
    await screenshot(page, transport, 'mapping-sites-loaded');
  });
});
