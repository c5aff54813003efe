import { describe, expect, it } from 'vitest';
import type { Resource } from '../http/api-client';
import { ADMIN } from '../http/api-client';
import { ACME, breadcrumbCurrent, openSignedIn, PARIS, signInWithForm, signedInUser, tree, treeRow, walkTreeTo } from './app-page';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { fillField, formReady, instanceView, logMessages, saveForm } from './form-page';
import { goToNode, listSettled, openModel } from './resource-page';
import { useBrowser, useFlows } from './suite';

const shared = useBrowser('navigation');

interface SearchHit {
  data: { userid: string };
  meta: { pkid: string; href: string; hierarchy: string };
}

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: sign in, the tree, a new node, search', { timeout: 60_000 }, (transport) => {
  const flows = useFlows(transport, shared);

  it('signs the user in and shows the user and role in the top bar', async () => {
    const page = await flows.env().open(flows.context(), ADMIN);
    if (transport === 'http') {
      await page.getByRole('form', { name: 'Sign in' }).waitFor();
      await screenshot(page, transport, 'sign-in');
      await signInWithForm(page, ADMIN);
    }
    // Over IPC the shell has signed the local user in: no form, straight to the frame.
    await tree(page).waitFor();
    expect(await page.getByRole('form', { name: 'Sign in' }).count()).toBe(0);
    const user = signedInUser(page);
    expect(await user.textContent()).toMatch(/^admin\s*admin\s*at sys$/);
    expect(await user.locator('.role').textContent()).toBe('admin');
  });

  it('walks the tree to a site by keyboard and shows it in the breadcrumb', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await walkTreeTo(page, PARIS);
    expect(await treeRow(page, PARIS).getAttribute('aria-selected')).toBe('true');
    expect(await tree(page).locator('[aria-selected="true"]').count()).toBe(1);
    await breadcrumbCurrent(page).getByText('Paris', { exact: true }).waitFor();
    // The keyboard never left the tree.
    expect(await tree(page).evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    await listSettled(page);
    await screenshot(page, transport, 'tree-resources');
  });

  it('creates a node at a customer through the form and shows it in the tree', async () => {
    const env = flows.env();
    const page = await openSignedIn(env, flows.context());
    await goToNode(page, ACME);
    await openModel(page, 'data/HierarchyNode');
    await page.getByRole('region', { name: 'Resources' }).getByRole('button', { name: 'Add', exact: true }).click();
    await formReady(page);
    await fillField(page, 'name', 'Lyon');
    await fillField(page, 'node_type', 'Site');
    await fillField(page, 'description', 'Acme Lyon office');

    expect(await saveForm(page)).toBe('Success');
    expect((await logMessages(page)).length).toBeGreaterThan(0);
    await treeRow(page, `${ACME}.Lyon`).waitFor();
    const nodes = await env.api.get<{ resources: Resource<{ name: string; node_type: string }>[] }>(
      `/api/data/HierarchyNode/?hierarchy=${encodeURIComponent(ACME)}&traversal=local&limit=100`,
    );
    expect(nodes.body.resources.find((node) => node.data.name === 'Lyon')?.data.node_type).toBe('Site');
  });

  it('searches from the top bar and opens a hit in the instance view', async () => {
    const env = flows.env();
    const query = 'relation/Subscriber with lastname is Dubois';
    const answer = await env.api.get<{ resources: SearchHit[] }>(`/api/tool/Search/?hierarchy=sys&query=${encodeURIComponent(query)}`);
    expect(answer.body.resources.length).toBe(2);
    const expected = answer.body.resources.find((hit) => hit.meta.hierarchy === PARIS);
    if (!expected) throw new Error('the search API found no Dubois at Paris');

    const page = await openSignedIn(env, flows.context());
    await page.getByRole('banner').getByRole('searchbox', { name: 'Search', exact: true }).fill(query);
    await page.keyboard.press('Enter');
    const results = page.getByTestId('search-results');
    await results.waitFor();
    expect(await results.locator('[data-href]').count()).toBe(2);
    await screenshot(page, transport, 'search-results');

    await results.locator(`[data-href="${expected.meta.href}"]`).click();
    await instanceView(page).getByTestId('instance-meta').getByText(expected.meta.pkid, { exact: true }).first().waitFor();
    await instanceView(page)
      .getByRole('heading', { name: new RegExp(expected.data.userid) })
      .waitFor();
  });
});
