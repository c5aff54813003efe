import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { ACME, openSignedIn, PARIS, treeRow } from './app-page';
import { allLines, createOperator, createSiteAdmin, lineByPattern, LINE, OPERATOR, readInstance, SITE_ADMIN } from './api-fixtures';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { instanceView, openLine } from './form-page';
import { dataRows, listSettled, openModel } from './resource-page';
import { useBrowser, useFlows } from './suite';

const shared = useBrowser('tags-and-permissions');

/** The first line of the demo world at Paris. */
const DEMO_LINE = '+33140001000';
const TAG = 'e2e-checked';
const CFT = 'data/ConfigurationTemplate';

function instanceActions(page: Page) {
  return instanceView(page).getByRole('toolbar', { name: 'Instance actions' });
}

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: tags and permissions', { timeout: 60_000 }, (transport) => {
  const flows = useFlows(transport, shared, async (env) => {
    await createOperator(env.api);
    await createSiteAdmin(env.api);
  });

  it('tags an instance, shows the chip, then untags it', async () => {
    const env = flows.env();
    const href = (await lineByPattern(env.api, DEMO_LINE))!.meta.href;
    const page = await openSignedIn(env, flows.context());
    await openLine(page, PARIS, DEMO_LINE);
    const chips = instanceView(page).getByRole('list', { name: 'Tags' });
    await chips.getByText('No tags').waitFor();

    await instanceView(page).getByLabel('New tag').fill(TAG);
    await instanceView(page).getByRole('button', { name: 'Add tag' }).click();
    await chips.locator('.inst-chip').filter({ hasText: TAG }).waitFor();
    expect((await readInstance(env.api, href)).meta.tags).toEqual([TAG]);

    await chips.getByRole('button', { name: `Remove tag ${TAG}` }).click();
    await chips.getByText('No tags').waitFor();
    expect(await chips.locator('.inst-chip').count()).toBe(0);
    expect((await readInstance(env.api, href)).meta.tags ?? []).toEqual([]);
  });

  it('exports an instance as a spreadsheet whose bytes arrive intact', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await openLine(page, PARIS, DEMO_LINE);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      instanceActions(page).getByRole('button', { name: 'Export xlsx' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^relation_LineRelation_exportedsheet_formatted_.*\.xlsx$/);
    // Over IPC the bytes crossed the bridge as base64: a workbook that opens proves them intact.
    const workbook = new ExcelJS.Workbook();
    const bytes = new Uint8Array(await readFile(await download.path()));
    await workbook.xlsx.load(bytes.slice().buffer as ArrayBuffer);
    const cells: string[] = [];
    workbook.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => void cells.push(String(cell.text)))));
    expect(cells).toContain(DEMO_LINE);
  });

  it('an operator at Paris may try a change: the service refuses it with Permission Denied, shown where they acted, and nothing changes', async () => {
    const env = flows.env();
    const before = JSON.stringify(await allLines(env.api));
    const page = await openSignedIn(env, flows.context(), OPERATOR);
    // The operator's tree starts at Paris, its own node.
    await treeRow(page, PARIS).and(page.locator('[aria-selected="true"]')).waitFor();
    await openModel(page, LINE);
    // The controls stay enabled; a note says changes will be refused.
    expect(await page.getByTestId('role-note').first().textContent()).toMatch(/^operator: .*changes will be refused/);
    await dataRows(page).first().getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('alertdialog', { name: 'Confirm delete' }).getByRole('button', { name: 'Delete 1' }).click();
    const listFault = page.getByRole('region', { name: 'Resources' }).locator('[role="alert"][data-fault-code="permission-denied"]');
    await listFault.waitFor();
    expect(await listFault.textContent()).toMatch(/^Permission Denied/);
    expect(await listFault.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await screenshot(page, transport, 'operator-denied');
    expect(await listSettled(page)).toBe('ready');

    await dataRows(page).first().locator('[role="gridcell"]').nth(1).click();
    await instanceView(page).waitFor();
    await instanceView(page).getByLabel('New tag').fill(TAG);
    await instanceView(page).getByRole('button', { name: 'Add tag' }).click();
    const tagFault = page.getByTestId('instance-meta').locator('[role="alert"][data-fault-code="permission-denied"]');
    await tagFault.waitFor();
    expect(await tagFault.textContent()).toMatch(/^Permission Denied/);
    await instanceView(page).getByRole('list', { name: 'Tags' }).getByText('No tags').waitFor();
    expect(JSON.stringify(await allLines(env.api))).toBe(before);
  });

  it('a denied delete (a site admin on a template above its node) shows Permission Denied and changes nothing', async () => {
    const env = flows.env();
    const templatesAtAcme = async (): Promise<string> => JSON.stringify(await env.api.listAll(CFT, ACME));
    const before = await templatesAtAcme();
    const page = await openSignedIn(env, flows.context(), SITE_ADMIN);
    await openModel(page, CFT);
    await page.getByRole('radiogroup', { name: 'Traversal' }).getByRole('radio', { name: 'This node and above' }).click();
    await page.locator('[data-testid="resource-table"][data-list-state="ready"]').waitFor();
    await dataRows(page).filter({ hasText: 'Acme Line Defaults' }).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('alertdialog', { name: 'Confirm delete' }).getByRole('button', { name: 'Delete 1' }).click();

    const fault = page.locator('[role="alert"][data-fault-code="permission-denied"]');
    await fault.waitFor();
    expect(await fault.textContent()).toMatch(/^Permission Denied/);
    await screenshot(page, transport, 'permission-denied');
    // The list stays, with the template still in it.
    expect(await listSettled(page)).toBe('ready');
    await dataRows(page).filter({ hasText: 'Acme Line Defaults' }).waitFor();
    expect(await templatesAtAcme()).toBe(before);
  });
});
