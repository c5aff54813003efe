import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../http/api-client';
import { cleanupServers, startServe, tempDataDir, TEST_PASSWORD, type ServeProcess } from '../http/serve-process';
import { workbookOf } from '../service/bulk-validate-helpers';
import { addRemote, openSignedIn, PARIS } from './app-page';
import { lineByPattern } from './api-fixtures';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { useBrowser, useFlows } from './suite';

const shared = useBrowser('sync-panel');

/**
 * Offline staging from the app: a remote added in Settings, its Sync panel opened, its mirror
 * pulled, a workbook opened there for the profile (checked against the mirror), and pushed: the
 * panel reports the rows loaded, and the lines are on the remote.
 */
let remote: ServeProcess;
let remoteApi: ApiClient;
beforeAll(async () => {
  remote = await startServe({ dataDir: tempDataDir(), seed: 'demo', release: '20.1.1', readyTimeoutMs: 30_000 });
  remoteApi = new ApiClient(remote.url, { username: 'admin', password: TEST_PASSWORD });
}, 60_000);
afterAll(cleanupServers);

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: the Sync panel', { timeout: 120_000 }, (transport) => {
  const flows = useFlows(transport, shared);
  const numbers = transport === 'http' ? '+3314100' : '+3314200';
  const profile = `Field-${transport}`;

  it('pulls the mirror, stages a workbook for the profile and pushes it, with each step shown', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await addRemote(page, profile, remote.url, TEST_PASSWORD);
    await page.locator(`tr[data-profile="${profile}"]`).waitFor();
    await page.getByRole('button', { name: `Sync ${profile}` }).click();
    const mirror = page.getByRole('region', { name: `Mirror of ${profile}` });
    await mirror.getByText(/never pulled/).waitFor();
    await mirror.getByRole('button', { name: 'Pull now' }).click();
    await mirror
      .getByTestId('mirror-pulled')
      .getByText(/mirror of/)
      .waitFor();
    await page.getByRole('table', { name: 'Mirror counts' }).getByText('relation/LineRelation').waitFor();
    await page.getByTestId('sync-reach').getByText(`Online: ${profile} answers.`).waitFor();
    await screenshot(page, transport, 'sync-pulled');

    // A new phone and 12 lines on it.
    const phone = `SEPFIELD${transport.toUpperCase()}01`;
    const rows = [['Hierarchy Node', 'Device', 'Directory Number', 'Alerting Name', 'Route Partition']];
    for (let i = 0; i < 12; i += 1) rows.push([PARIS, phone, `${numbers}${String(i).padStart(4, '0')}`, `Field ${i}`, 'Paris-PT']);
    const bytes = await workbookOf([
      {
        name: 'Phone',
        rows: [
          ['Hierarchy Node', 'name', 'product', 'protocol'],
          [PARIS, phone, 'Cisco 8845', 'SIP'],
        ],
      },
      { name: 'LineRelation', rows },
    ]);
    const stage = page.getByRole('region', { name: `Stage a workbook for ${profile}` });
    await stage.getByLabel("Remote hierarchy (empty: the mirror's home)").fill(PARIS);
    await stage.getByLabel(`Open .xlsx file for ${profile}`).setInputFiles({
      name: `field-${transport}.xlsx`,
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: bytes,
    });
    const staged = page.getByRole('table', { name: `Workbooks staged for ${profile}` });
    await staged.getByText(`field-${transport}.xlsx`).waitFor();
    await staged.getByText(/checked against the mirror of/).waitFor();
    const push = staged.getByRole('button', { name: `Push field-${transport}.xlsx` });
    await expect.poll(() => push.isEnabled(), { timeout: 30_000 }).toBe(true);
    await screenshot(page, transport, 'sync-staged');
    await push.click();
    // It reaches a customer's system: asked first, naming the deployment and what the plan does there.
    const asked = page.getByRole('alertdialog', { name: `Push to ${profile}` });
    await asked.waitFor();
    expect(await asked.textContent()).toContain(`Push field-${transport}.xlsx to ${profile} (http://127.0.0.1:`);
    expect(await asked.textContent()).toMatch(/13 rows, not planned|The plan: \d+ adds?/);
    await screenshot(page, transport, 'sync-push-asked');
    await asked.getByRole('button', { name: 'Push' }).click();
    const report = page.getByRole('status', { name: `Push of field-${transport}.xlsx` });
    await report.getByTestId('push-loaded').getByText('13').waitFor({ timeout: 60_000 });
    expect(await report.getByTestId('push-failed').textContent()).toBe('0');
    await screenshot(page, transport, 'sync-pushed');
    for (const i of [0, 11])
      expect((await lineByPattern(remoteApi, `${numbers}${String(i).padStart(4, '0')}`))?.data.alertingName).toBe(`Field ${i}`);
  });

  it('says offline for a remote that cannot be reached, and which actions need the network', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    const gone = `Gone-${transport}`;
    await addRemote(page, gone, `http://127.0.0.1:${await closedPort()}`, TEST_PASSWORD);
    await page.locator(`tr[data-profile="${gone}"]`).waitFor();
    await page.getByRole('button', { name: `Sync ${gone}` }).click();
    const reach = page.getByTestId('sync-reach');
    await reach.getByText(/^Offline/).waitFor();
    expect(await reach.textContent()).toContain('Pull now and Push need the network');
    const pull = page.getByRole('region', { name: `Mirror of ${gone}` }).getByRole('button', { name: 'Pull now' });
    expect(await pull.getAttribute('title')).toBe(`Needs the network: ${gone} cannot be reached now`);
    await screenshot(page, transport, 'sync-offline');
    // Tried anyway: the pull says why it failed, and nothing was pulled.
    await pull.click();
    await page.locator('[role="alert"][data-fault-code="remote-unreachable"]').waitFor();
    expect(await page.getByTestId('mirror-pulled').textContent()).toBe('never pulled');
  });
});

/** A port on 127.0.0.1 that nothing listens on: a connection to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  await new Promise((closed) => server.close(closed));
  return port;
}
