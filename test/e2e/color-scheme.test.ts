import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openSignedIn } from './app-page';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { useBrowser, useFlows } from './suite';

const shared = useBrowser('color-scheme');

/** Relative luminance (0 black .. 1 white) of a computed `rgb(...)` colour. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? ['0', '0', '0']).slice(0, 3).map((part) => Number(part) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

async function colours(page: Page): Promise<{ background: number; text: number; table: number }> {
  // A string, run in the page: the test's own TypeScript has no DOM types (tsconfig.node.json).
  const found = (await page.evaluate(`(() => {
    const root = getComputedStyle(document.documentElement);
    const tree = document.querySelector('[role="tree"]');
    return { background: root.backgroundColor, text: root.color, table: tree ? getComputedStyle(tree).color : '' };
  })()`)) as { background: string; text: string; table: string };
  return { background: luminance(found.background), text: luminance(found.text), table: luminance(found.table) };
}

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: the system colour scheme', { timeout: 60_000 }, (transport) => {
  const flows = useFlows(transport, shared);

  it('follows the system: dark surfaces and light text in dark mode, the reverse in light', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await colours(page);
    await screenshot(page, transport, 'dark-mode');
    expect(dark.background).toBeLessThan(0.2);
    expect(dark.text).toBeGreaterThan(0.7);
    expect(dark.table).toBeGreaterThan(0.7);
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await colours(page);
    expect(light.background).toBeGreaterThan(0.8);
    expect(light.text).toBeLessThan(0.3);
  });
});
