import { describe, expect, it } from 'vitest';
import { LINE, lineByPattern, readInstance } from './api-fixtures';
import { ACME, openSignedIn, PARIS } from './app-page';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { fillField, formReady, instanceView, openLine, resourceForm, saveForm } from './form-page';
import { goToNode, openModel } from './resource-page';
import { useBrowser, useFlows } from './suite';

/**
 * Issue 32, point 9: words for a field engineer. A template's macro shows the value it will make,
 * a field's help says what to type (not how the schema was guessed), references and the
 * transaction's resource show names rather than pkids, and Settings names its own fields when the
 * service refuses a profile.
 */
const shared = useBrowser('words');

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: words for a field engineer', { timeout: 90_000 }, (transport) => {
  const flows = useFlows(transport, shared);

  it('adds a line with a template: the macro reads as the value it makes, the help as what to type, the result by its number', async () => {
    const pattern = transport === 'http' ? '+33149970801' : '+33149970802';
    const page = await openSignedIn(flows.env(), flows.context());
    await goToNode(page, PARIS);
    await openModel(page, LINE);
    await page.getByRole('region', { name: 'Resources' }).getByRole('button', { name: 'Add', exact: true }).click();
    await formReady(page);
    await resourceForm(page)
      .getByLabel('Configuration template')
      .selectOption({ label: `Acme Line Defaults (${ACME})` });
    const fills = resourceForm(page).locator('.template-fills');
    const description = resourceForm(page).locator('[name="description"]');
    // The demo's template sets the description to "{{ input.alertingName }} line".
    await fills.locator('li').filter({ hasText: 'Description ← ‹Alerting Name› line once Alerting Name is filled' }).waitFor();
    expect(await description.getAttribute('placeholder')).toBe('‹Alerting Name› line');
    await fillField(page, 'pattern', pattern);
    await fillField(page, 'alertingName', 'Zoe Lambert');
    await fills.locator('li').filter({ hasText: 'Description ← Zoe Lambert line' }).waitFor();
    expect(await description.getAttribute('placeholder')).toBe('Zoe Lambert line');
    const formText = (await resourceForm(page).textContent()) ?? '';
    expect(formText).not.toContain('{{');
    expect(formText).not.toContain('observed instances');
    await fills.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await screenshot(page, transport, 'words-template-preview');

    expect(await saveForm(page)).toBe('Success');
    // The transaction opens its resource by the line's number, not its pkid.
    await page
      .getByTestId('transaction-resource')
      .getByRole('button', { name: `Open Line Relation ${pattern}` })
      .waitFor();
    // Saved, the description is the value the preview showed.
    const line = await lineByPattern(flows.env().api, pattern);
    if (!line) throw new Error(`the line ${pattern} was not added`);
    expect((await readInstance<{ description: string }>(flows.env().api, line.meta.href)).data.description).toBe('Zoe Lambert line');
  });

  it('shows an instance’s references by name', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await openLine(page, PARIS, '+33140001000');
    const references = instanceView(page).locator('.inst-refs');
    await references.getByRole('button', { name: 'Paris', exact: true }).waitFor();
    await references.getByRole('button', { name: '+33140001000', exact: true }).first().waitFor();
    await screenshot(page, transport, 'words-references');
  });

  it('names the Settings field a refused profile got wrong, as the form labels it', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Add a remote deployment' });
    await form.getByLabel('Name', { exact: true }).fill(`Words-${transport}`);
    await form.getByLabel('Base URL').fill('https://voss.example.com/api/');
    await form.getByLabel('User name', { exact: true }).fill('admin');
    await form.getByRole('button', { name: 'Add' }).click();
    const alert = page.locator('.settings [role="alert"]');
    await alert.getByText("Base URL must be the deployment's address, without /api/").waitFor();
    expect(await alert.textContent()).not.toContain('base_url');
    await screenshot(page, transport, 'words-settings-refusal');
  });
});
