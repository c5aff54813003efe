import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../http/api-client';
import { LINE } from './api-fixtures';
import { ACME, addRemote, openSignedIn, PARIS, signedInUser, tree } from './app-page';
import { blocking, checkScreen, describeFinding, type Finding } from './axe';
import { TRANSPORTS, type E2eEnv } from './environment';
import { formReady, instanceView, resourceForm } from './form-page';
import { dataRows, goToNode, listSettled, openModel } from './resource-page';
import { useBrowser, useFlows } from './suite';
import { clickFirstCell, openFixtureInGrid } from './workbook-grid';

/**
 * Issue 32, point 8: every screen readable by everyone. axe-core runs on each screen in light and
 * dark mode at 1440x900; a screen fails on any serious or critical violation, a missing
 * level-one heading or a landmark named twice, and the failure lists each (rule, element, why).
 * Each screen is also photographed in both themes at 1440x900 and 1280x720, to be looked at.
 */
const shared = useBrowser('accessibility');
const folder = mkdtempSync(join(tmpdir(), 'ws-e2e-a11y-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** What a failing screen reports: one line per broken rule and element. */
function expectClean(found: Finding[]): void {
  expect(found.filter(blocking).map(describeFinding)).toEqual([]);
}

function view(page: Page, name: string): Promise<void> {
  return page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name, exact: true }).click();
}

/** A customer's own sheet: opened, it stops at the mapping step. */
async function writeSurvey(file: string): Promise<void> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Site survey');
  sheet.addRow(['Site', 'Number', 'Display name', 'Comment']);
  for (let i = 0; i < 3; i += 1) sheet.addRow(['Paris', `01 49 97 ${10 + i} 00`, `Desk ${i}`, `room ${i}`]);
  await book.xlsx.writeFile(file);
}

/**
 * A line added through the API, then added again: the Transactions list has a row that succeeded
 * and one that failed (its key taken), each with a detail.
 */
async function addLine(env: E2eEnv): Promise<void> {
  const pattern = env.transport === 'http' ? '+33149970901' : '+33149970902';
  const add = () =>
    env.api.post(`/api/${LINE}/?hierarchy=${encodeURIComponent(PARIS)}`, {
      data: { pattern, routePartitionName: 'Paris-PT', alertingName: 'Accessibility check' },
    });
  expect((await add()).status).toBe(200);
  expect((await add()).status).toBeGreaterThanOrEqual(400);
}

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: every screen readable by everyone', { timeout: 180_000 }, (transport) => {
  const flows = useFlows(transport, shared, addLine);

  it('the sign-in page over HTTP (over IPC there is none: the desktop app opens signed in)', async () => {
    const page = await flows.env().open(flows.context(), ADMIN);
    if (transport === 'ipc') {
      await signedInUser(page).waitFor();
      expect(await page.getByRole('form', { name: 'Sign in' }).count()).toBe(0);
      return;
    }
    await page.getByRole('form', { name: 'Sign in' }).waitFor();
    expectClean(await checkScreen(page, transport, 'sign-in'));
  });

  it('the tree, the Resources list, a resource form and an instance', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    const found: Finding[] = [];
    await goToNode(page, ACME);
    await listSettled(page);
    await tree(page).focus();
    found.push(...(await checkScreen(page, transport, 'tree')));

    await goToNode(page, PARIS);
    await openModel(page, LINE);
    found.push(...(await checkScreen(page, transport, 'resources')));
    // A row chosen: its highlight, and the actions for the selection.
    await dataRows(page).first().getByRole('checkbox').check();
    found.push(...(await checkScreen(page, transport, 'resources-selected')));

    await page.getByRole('region', { name: 'Resources' }).getByRole('button', { name: 'Add', exact: true }).click();
    await formReady(page);
    found.push(...(await checkScreen(page, transport, 'resource-form')));
    // Saved empty: each required field says what it needs, and a summary above lists them.
    await resourceForm(page).getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('form-errors').waitFor();
    found.push(...(await checkScreen(page, transport, 'resource-form-errors')));

    await view(page, 'Resources');
    await listSettled(page);
    await dataRows(page).first().click();
    await instanceView(page).waitFor();
    found.push(...(await checkScreen(page, transport, 'instance')));
    // Delete asks first, in the view's own dialog.
    await instanceView(page).getByRole('toolbar', { name: 'Instance actions' }).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm delete' });
    await confirm.waitFor();
    found.push(...(await checkScreen(page, transport, 'instance-delete-confirm')));
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expectClean(found);
  });

  it('the Workbooks list, a workbook grid and the mapping step of a customer sheet', async () => {
    const env = flows.env();
    const page = await openSignedIn(env, flows.context());
    const found: Finding[] = [];
    await openFixtureInGrid(page, env);
    await clickFirstCell(page);
    found.push(...(await checkScreen(page, transport, 'workbook-grid')));
    // Planned, then loaded: the Plan and Outcome columns, the totals, the progress bar.
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    await page.getByTestId('plan-totals').waitFor();
    found.push(...(await checkScreen(page, transport, 'workbook-planned')));
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await page
      .getByTestId('workbook-state')
      .filter({ hasText: /^loaded/ })
      .waitFor();
    found.push(...(await checkScreen(page, transport, 'workbook-loaded')));

    await view(page, 'Workbooks');
    const list = page.getByRole('table', { name: 'Workbooks' });
    await list.locator('tbody tr').first().waitFor();
    found.push(...(await checkScreen(page, transport, 'workbooks')));

    const name = `a11y-survey-${transport}.xlsx`;
    await writeSurvey(join(folder, name));
    await page.getByLabel('Open .xlsx file').setInputFiles(join(folder, name));
    // Opened, the sheet goes to its mapping step; where it waits in the list instead, it is opened from there.
    const preview = page.getByRole('table', { name: 'Mapping preview' });
    const listed = list.locator('tbody tr').filter({ hasText: name }).first();
    await preview
      .or(listed.locator('.pill').filter({ hasText: 'columns to map' }))
      .first()
      .waitFor();
    if (!(await preview.isVisible())) await listed.getByRole('button', { name, exact: true }).click();
    await preview.waitFor();
    found.push(...(await checkScreen(page, transport, 'mapping-step')));

    expectClean(found);
  });

  it('a file the app cannot open, with its reason where it was opened', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await view(page, 'Workbooks');
    await page.getByLabel('Open .xlsx file').setInputFiles(join(__dirname, '..', 'fixtures', 'hostile-encrypted.xlsx'));
    await page
      .getByRole('alert')
      .filter({ hasText: /encrypted|password/i })
      .first()
      .waitFor();
    expectClean(await checkScreen(page, transport, 'workbook-refused'));
  });

  it('the Transactions list and one transaction', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    const found: Finding[] = [];
    await view(page, 'Transactions');
    const table = page.locator('[data-testid="transaction-table"][data-list-state="ready"]');
    await table.waitFor();
    found.push(...(await checkScreen(page, transport, 'transactions')));

    await table.locator('tr.tx-row').filter({ hasText: 'Success' }).first().click();
    await page.locator('[data-testid="transaction-view"][data-status="Success"]').waitFor();
    found.push(...(await checkScreen(page, transport, 'transaction')));

    await page.getByRole('button', { name: '‹ All transactions' }).click();
    await table.locator('tr.tx-row').filter({ hasText: 'Fail' }).first().click();
    await page.locator('[data-testid="transaction-view"][data-status="Fail"]').waitFor();
    found.push(...(await checkScreen(page, transport, 'transaction-failed')));
    expectClean(found);
  });

  it('Search, Settings with a remote deployment, its Sync panel, and Help', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    const found: Finding[] = [];
    await page
      .getByRole('banner')
      .getByRole('searchbox', { name: 'Search', exact: true })
      .fill('relation/Subscriber with lastname is Dubois');
    await page.keyboard.press('Enter');
    await page.getByTestId('search-results').locator('[data-href]').first().waitFor();
    await page.getByText('Query grammar', { exact: true }).click();
    found.push(...(await checkScreen(page, transport, 'search')));

    // A deployment that does not answer (nothing listens on port 9): listed, its mirror never pulled.
    const remote = `A11y-${transport}`;
    await addRemote(page, remote, 'http://127.0.0.1:9', 'not-used-1');
    await page.locator(`tr[data-profile="${remote}"]`).waitFor();
    found.push(...(await checkScreen(page, transport, 'settings')));

    await page.getByRole('button', { name: `Sync ${remote}` }).click();
    await page
      .getByRole('region', { name: `Mirror of ${remote}` })
      .getByText(/never pulled/)
      .waitFor();
    found.push(...(await checkScreen(page, transport, 'sync')));

    await view(page, 'Help');
    await page.getByRole('table', { name: 'API operations' }).waitFor();
    found.push(...(await checkScreen(page, transport, 'help')));
    expectClean(found);
  });

  it('the export viewer', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await goToNode(page, PARIS);
    await openModel(page, LINE);
    await page.getByRole('region', { name: 'Resources' }).getByRole('button', { name: 'View', exact: true }).click();
    await page.getByRole('heading', { name: 'LineRelation-export.xlsx' }).waitFor();
    await page.locator('[role="grid"] [role="gridcell"]').first().waitFor({ state: 'attached' });
    expectClean(await checkScreen(page, transport, 'export-viewer'));
  });
});
