import type { BrowserContext, Page } from 'playwright-core';
import type { ProbeMarks } from './ui-page-probe';

/** What one run clicks: a site holding many lines, and the wide node with its child count. */
export interface UiRunPlan {
  customerPath: string;
  sitePath: string;
  widePath: string;
  wideChildren: number;
}

/** One fresh page's three interactions, each as the probe recorded it (undefined: not measured). */
export interface UiRun {
  ready: ProbeMarks;
  list?: ProbeMarks;
  /** Why the list was not measured, e.g. the renderer has no resource table yet. */
  listSkipped?: string;
  /** The first row the list painted, to prove it belongs to the clicked site. */
  listFirstPkid?: string;
  expand: ProbeMarks;
}

const TIMEOUT_MS = 20_000;
const treeRow = (path: string): string => `[role="treeitem"][data-path="${path}"]`;

async function probeResult(page: Page, name: string): Promise<ProbeMarks> {
  const record = await page.evaluate<ProbeMarks>(`window.__uiBench.result(${JSON.stringify(name)}, ${TIMEOUT_MS})`);
  if (record.failure) throw new Error(`${name}: ${record.failure}`);
  return record;
}

/**
 * A tree click on a site to the first list page painted. The customer is opened first, untimed,
 * and the list the app shows at start is let finish, so the figure holds the click's own work only.
 */
async function measureList(page: Page, plan: UiRunPlan): Promise<ProbeMarks | string> {
  const table = page.locator('[data-testid="resource-table"]');
  if ((await table.count()) === 0) {
    const found = await page.waitForSelector('[data-testid="resource-table"]', { timeout: 5_000 }).catch(() => null);
    if (!found) return 'the renderer shows no [data-testid="resource-table"]';
  }
  await page.waitForSelector('[data-testid="resource-table"]:not([data-list-state="loading"])', { timeout: TIMEOUT_MS });
  await page.click(`${treeRow(plan.customerPath)} .twisty`);
  await page.waitForSelector(treeRow(plan.sitePath), { timeout: TIMEOUT_MS });
  await page.evaluate('window.__uiBench.armList()');
  await page.click(`${treeRow(plan.sitePath)} .tree-name`);
  return probeResult(page, 'list');
}

const firstRowPkid = (page: Page): Promise<string | null> => page.evaluate<string | null>('window.__uiBench.firstRowPkid()');

async function measureExpand(page: Page, plan: UiRunPlan): Promise<ProbeMarks> {
  await page.evaluate(`window.__uiBench.armExpand(${JSON.stringify(plan.widePath)}, ${plan.wideChildren})`);
  await page.click(`${treeRow(plan.widePath)} .twisty`);
  return probeResult(page, 'expand');
}

/** A fresh page (session cookie already set, so no sign-in page): start, list, then expand. */
export async function measureRun(context: BrowserContext, origin: string, plan: UiRunPlan): Promise<UiRun> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.goto(`${origin}/`, { waitUntil: 'commit' });
    const ready = await probeResult(page, 'ready');
    await page.waitForSelector(treeRow(plan.widePath), { timeout: TIMEOUT_MS });
    const list = await measureList(page, plan);
    const listFirstPkid = typeof list === 'string' ? undefined : ((await firstRowPkid(page)) ?? undefined);
    const expand = await measureExpand(page, plan);
    if (errors.length > 0) throw new Error(`the page threw: ${errors.join('; ')}`);
    return typeof list === 'string' ? { ready, listSkipped: list, expand } : { ready, list, listFirstPkid, expand };
  } finally {
    await page.close();
  }
}
