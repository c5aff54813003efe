import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../http/api-client';
import { cleanupServers, startServe, tempDataDir, TEST_PASSWORD, type ServeProcess } from '../http/serve-process';
import { SpecOnlyFront } from '../remote/spec-only-front';
import { ACME, addRemote, openSignedIn, PARIS, tree, treeRow } from './app-page';
import { LINE, lineByPattern } from './api-fixtures';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { fillField, formReady, instanceView, saveForm, transactionFinished } from './form-page';
import { goToNode, openModel } from './resource-page';
import { useBrowser, useFlows } from './suite';

const shared = useBrowser('live-workspace');

/**
 * The whole app live against a remote deployment (a second real `serve` with the demo world):
 * add the remote in Settings and test it, switch to it, browse its tree, add and delete a line
 * there (the delete asks first, naming the deployment), and switch back to Local, where
 * nothing of it happened.
 */
let remote: ServeProcess;
let remoteApi: ApiClient;
/** The same remote as a deployment that speaks the spec only: no /api/whoami/ (404). */
let specOnly: SpecOnlyFront;
beforeAll(async () => {
  remote = await startServe({ dataDir: tempDataDir(), seed: 'demo', release: '21.1', readyTimeoutMs: 30_000 });
  remoteApi = new ApiClient(remote.url, { username: 'admin', password: TEST_PASSWORD });
  specOnly = new SpecOnlyFront(new URL(remote.url));
  await specOnly.start();
}, 60_000);
afterAll(async () => {
  await specOnly?.close();
  await cleanupServers();
});

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: working live on a remote deployment', { timeout: 90_000 }, (transport) => {
  const flows = useFlows(transport, shared);
  const pattern = transport === 'http' ? '+33140001071' : '+33140001072';
  const profile = `Customer-${transport}`;

  it('adds the remote, switches to it, adds and deletes a line there after a confirmation naming it, and switches back', async () => {
    const env = flows.env();
    const page = await openSignedIn(env, flows.context());
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });

    const form = await addRemote(page, profile, remote.url, TEST_PASSWORD);
    const row = page.locator(`tr[data-profile="${profile}"]`);
    await row.getByRole('button', { name: 'Test connection' }).click();
    await row
      .locator('[data-verdict="ok"]')
      .getByText(/answers as admin in \d+ ms; it runs release 21\.1 or later/)
      .waitFor();
    expect(await form.getByLabel('Password').inputValue()).toBe('');
    await screenshot(page, transport, 'settings-remote');
    // Edit it: the release entered instead of detected, the password held kept (the field left empty).
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: `Edit ${profile}` });
    expect(await edit.getByLabel('Base URL').inputValue()).toBe(remote.url);
    await edit.getByLabel('Release (empty: detect)').fill('21.1');
    await screenshot(page, transport, 'settings-edit-remote');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await row.locator('td', { hasText: /^21\.1$/ }).waitFor();
    expect(await row.textContent()).toContain('held');
    expect(await edit.count()).toBe(0);

    await page.getByLabel('Workspace').selectOption(profile);
    await page.locator(`[data-testid="workspace"][data-workspace="${profile}"][data-live="true"]`).getByText(remote.url).waitFor();
    await page.getByTestId('live-workspace').getByText(`Live on ${profile}`).waitFor();
    await tree(page).waitFor();
    await goToNode(page, PARIS);
    await openModel(page, LINE);
    await page.getByRole('region', { name: 'Resources' }).getByRole('button', { name: 'Add', exact: true }).click();
    await formReady(page);
    await fillField(page, 'pattern', pattern);
    await fillField(page, 'alertingName', 'Live Line');
    await screenshot(page, transport, 'live-add-form');
    expect(await saveForm(page)).toBe('Success');
    expect((await lineByPattern(remoteApi, pattern))?.data.alertingName).toBe('Live Line');
    expect(await lineByPattern(env.api, pattern)).toBeUndefined();

    await page.getByTestId('transaction-resource').getByRole('button').click();
    await instanceView(page).getByRole('toolbar', { name: 'Instance actions' }).getByRole('button', { name: 'Delete' }).click();
    // The app's own delete dialog names the deployment and its address; it is the only question.
    const confirmDelete = page.getByRole('alertdialog', { name: 'Confirm delete' });
    await confirmDelete
      .getByTestId('live-target')
      .getByText(`This changes the live deployment ${profile} (${remote.url}), not the local store.`)
      .waitFor();
    await screenshot(page, transport, 'live-confirm-delete');
    await confirmDelete.getByRole('button', { name: 'Delete' }).click();
    expect(await transactionFinished(page)).toBe('Success');
    expect(dialogs).toEqual([]);
    expect(await page.getByRole('alertdialog', { name: 'Confirm a live change' }).count()).toBe(0);
    expect(await lineByPattern(remoteApi, pattern)).toBeUndefined();
    await screenshot(page, transport, 'live-transaction');

    await page.getByLabel('Workspace').selectOption('Local');
    await page.locator('[data-testid="workspace"][data-workspace="Local"][data-live="false"]').waitFor();
    expect(await page.getByTestId('live-workspace').count()).toBe(0);
    await goToNode(page, PARIS);
    await page.getByRole('region', { name: 'Resources' }).waitFor();
    await screenshot(page, transport, 'back-to-local');
  });

  it('on a remote without /api/whoami/: Test connection and the tree ask for the home hierarchy; entered, the tree starts there', async () => {
    const env = flows.env();
    const page = await openSignedIn(env, flows.context());
    const name = `SpecOnly-${transport}`;
    await addRemote(page, name, specOnly.url, TEST_PASSWORD);
    const row = page.locator(`tr[data-profile="${name}"]`);
    await row.getByRole('button', { name: 'Test connection' }).click();
    await row
      .locator('[data-verdict="no-home"]')
      .getByText(/does not say where user admin sits in its hierarchy .*: enter the profile's home hierarchy/)
      .waitFor();
    await screenshot(page, transport, 'settings-remote-no-home');

    await page.getByLabel('Workspace').selectOption(name);
    const navigation = page.getByRole('navigation', { name: 'Hierarchy navigation' });
    await navigation.getByText(/does not say where the profile's user sits/).waitFor();
    await screenshot(page, transport, 'live-no-home');

    await page.getByLabel('Workspace').selectOption('Local');
    await page.locator('[data-testid="workspace"][data-workspace="Local"]').waitFor();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: `Edit ${name}` });
    await edit.getByLabel('Home hierarchy (empty: ask the remote)').fill(ACME);
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await row.getByRole('button', { name: 'Test connection' }).click();
    await row
      .locator('[data-verdict="ok"]')
      .getByText(`the tree starts at the profile's home hierarchy ${ACME}`, { exact: false })
      .waitFor();

    await page.getByLabel('Workspace').selectOption(name);
    await page.getByTestId('live-workspace').getByText(`Live on ${name}`).waitFor();
    await treeRow(page, ACME).waitFor();
    await goToNode(page, PARIS);
    await openModel(page, LINE);
    await page.getByRole('region', { name: 'Resources' }).waitFor();
    await screenshot(page, transport, 'live-home-hierarchy');
    expect(await tree(page).locator('[role="treeitem"][data-path="sys"]').count()).toBe(0);
  });
});
