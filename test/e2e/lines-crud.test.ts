import { describe, expect, it } from 'vitest';
import type { Resource } from '../http/api-client';
import { ACME, openSignedIn, PARIS } from './app-page';
import { createTemplate, LINE, lineByPattern, readInstance, TEMPLATE_FILLS, TEMPLATE_NAME } from './api-fixtures';
import { screenshot } from './browser';
import { TRANSPORTS, type E2eEnv } from './environment';
import {
  fillField,
  formReady,
  instanceView,
  logMessages,
  openLine,
  resourceForm,
  saveForm,
  shownField,
  transactionFinished,
} from './form-page';
import { goToNode, openModel } from './resource-page';
import { useBrowser, useFlows } from './suite';

const shared = useBrowser('lines-crud');

/** An Available number of the demo inventory at Acme: adding marks it Used, deleting frees it. */
const PATTERN = '+33140001050';
const INVENTORY = 'data/InternalNumberInventory';
/** The demo's Field Display Policy for lines at Acme (groups Line, Device, Forwarding). */
const LAYOUT_NAME = 'Acme Line Form';

interface LineFull {
  pattern: string;
  alertingName?: string;
  description?: string;
  presenceGroupName?: string;
  usage?: string;
  shareLineAppearanceCssName?: string;
  callForwardAll?: { destination?: string | null };
}

async function inventoryStatus(env: E2eEnv): Promise<string> {
  const query = `&filter_field=internal_number&filter_condition=equals&filter_text=${encodeURIComponent(PATTERN)}`;
  const answer = await env.api.get<{ resources: Resource<{ status: string }>[] }>(
    `/api/${INVENTORY}/?hierarchy=${encodeURIComponent(ACME)}${query}`,
  );
  return answer.body.resources[0]?.data.status ?? 'missing';
}

// The three flows run in order on one line: add it, edit it, delete it.
describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: a line added with a CFT, edited and deleted', { timeout: 60_000 }, (transport) => {
  const flows = useFlows(transport, shared, async (env) => {
    await createTemplate(env.api);
  });

  it('adds a line through the form with a CFT and shows its transaction log', async () => {
    const env = flows.env();
    expect(await inventoryStatus(env)).toBe('Available');
    const page = await openSignedIn(env, flows.context());
    await goToNode(page, PARIS);
    await openModel(page, LINE);
    await page.getByRole('region', { name: 'Resources' }).getByRole('button', { name: 'Add', exact: true }).click();
    await formReady(page);
    await resourceForm(page)
      .getByLabel('Configuration template')
      .selectOption({ label: `${TEMPLATE_NAME} (${ACME})` });
    // The picker says what the template will fill before anything is saved.
    await resourceForm(page).locator('.template-fills li').filter({ hasText: 'Presence Group ←' }).waitFor();
    // A field the template fills shows the template's value in grey, not the schema default.
    const presence = resourceForm(page).locator('[name="presenceGroupName"]');
    expect([await presence.inputValue(), await presence.getAttribute('placeholder')]).toEqual(['', TEMPLATE_FILLS.presenceGroupName]);
    await fillField(page, 'pattern', PATTERN);
    // Another layout re-reads the form and keeps what was typed.
    await resourceForm(page)
      .getByLabel('Form layout')
      .selectOption({ label: `${LAYOUT_NAME} (${ACME})` });
    await resourceForm(page).getByRole('tab', { name: 'Forwarding' }).waitFor();
    expect(await resourceForm(page).locator('[name="pattern"]').inputValue()).toBe(PATTERN);
    await fillField(page, 'alertingName', 'Zoe Lambert');
    await fillField(page, 'callForwardAll.destination', '+33140009000');
    // The picture shows the pickers, what the template fills, and the Line tab with a field left to it.
    await resourceForm(page).getByRole('tab', { name: 'Line' }).click();
    // The template's macro ({{ input.alertingName }} (E2E)) shows the value it makes from the name typed.
    expect(await resourceForm(page).locator('[name="description"]').getAttribute('placeholder')).toBe('Zoe Lambert (E2E)');
    await resourceForm(page)
      .locator('.form-shapers')
      .evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await screenshot(page, transport, 'add-form-cft');

    expect(await saveForm(page)).toBe('Success');
    const messages = await logMessages(page);
    expect(messages).toContain(`Step 1 - Start Add device line ${PATTERN} at ${PARIS}`);
    expect(messages.filter((m) => /^Step \d+ - End$/.test(m)).length).toBeGreaterThanOrEqual(2);
    await screenshot(page, transport, 'transaction-detail');

    const line = await lineByPattern(env.api, PATTERN);
    expect(line).toBeDefined();
    const full = await readInstance<LineFull>(env.api, line!.meta.href);
    expect(full.data).toMatchObject({ ...TEMPLATE_FILLS, alertingName: 'Zoe Lambert', description: 'Zoe Lambert (E2E)' });
    expect(full.data.callForwardAll?.destination).toBe('+33140009000');
    expect(await inventoryStatus(env)).toBe('Used');
  });

  it('edits the line and shows the new value', async () => {
    const env = flows.env();
    const page = await openSignedIn(env, flows.context());
    await openLine(page, PARIS, PATTERN);
    await shownField(page, 'alertingName').getByText('Zoe Lambert', { exact: true }).waitFor();
    await screenshot(page, transport, 'instance');
    await instanceView(page).getByRole('toolbar', { name: 'Instance actions' }).getByRole('button', { name: 'Edit', exact: true }).click();
    await formReady(page);
    expect(await resourceForm(page).locator('[name="alertingName"]').inputValue()).toBe('Zoe Lambert');
    await fillField(page, 'alertingName', 'Zoe Lambert-Petit');

    expect(await saveForm(page)).toBe('Success');
    await page.getByTestId('transaction-resource').getByRole('button').click();
    await shownField(page, 'alertingName').getByText('Zoe Lambert-Petit', { exact: true }).waitFor();
    const line = await lineByPattern(env.api, PATTERN);
    expect(line?.data.alertingName).toBe('Zoe Lambert-Petit');
  });

  it('deletes the line and shows both steps of the delete in the log', async () => {
    const env = flows.env();
    const page = await openSignedIn(env, flows.context());
    await openLine(page, PARIS, PATTERN);
    await instanceView(page).getByRole('toolbar', { name: 'Instance actions' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Confirm delete' }).getByRole('button', { name: 'Delete' }).click();

    expect(await transactionFinished(page)).toBe('Success');
    const messages = await logMessages(page);
    expect(messages).toContain(`Step 1 - Start Remove device line ${PATTERN} from ${PARIS}`);
    expect(messages).toContain(`Step 2 - Start Release ${PATTERN} in the internal number inventory`);
    expect(messages).toContain('Step 2 - End');
    expect(await lineByPattern(env.api, PATTERN)).toBeUndefined();
    expect(await inventoryStatus(env)).toBe('Available');

    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Transactions' }).click();
    await page.locator('[data-testid="transaction-table"][data-list-state="ready"]').waitFor();
    await screenshot(page, transport, 'transactions-list');
  });
});
