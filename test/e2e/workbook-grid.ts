import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { WorkbookAnswer, WorkbookCell, WorkbookInfo, WorkbookList, WorkbookRowPage } from '../../main/service/contract/workbook-api';
import type { E2eEnv } from './environment';

/**
 * The workbook grid as a user works it, shared by the grid's flows: the LibreOffice fixture
 * opened from the Workbooks area, clicks on the canvas then keys, the cell editor, a paste from
 * a spreadsheet, and the API reads of the staged workbook the flows compare with.
 */
export const FIXTURE_NAME = 'line-relation-libreoffice.xlsx';
export const FIXTURE = join(__dirname, '..', 'fixtures', FIXTURE_NAME);

/**
 * From the Workbooks area: opens the LibreOffice fixture as a staged workbook, waits for its
 * check, opens it in the grid and waits for its first directory number. With `env`, the
 * fixture's earlier copies are deleted first, so the list's row of that name, and the API's
 * workbook of that name, are the one the test works on.
 */
export async function openFixtureInGrid(page: Page, env?: E2eEnv): Promise<void> {
  if (env) {
    const earlier = await env.api.get<WorkbookList>('/workstation/workbooks/');
    for (const workbook of earlier.body.workbooks.filter((candidate) => candidate.name === FIXTURE_NAME)) {
      expect((await env.api.delete(`/workstation/workbooks/${workbook.id}/`)).status).toBeLessThan(300);
    }
  }
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Workbooks' }).click();
  // Opening a file opens it: staged, checked, then its grid.
  await page.getByLabel('Open .xlsx file').setInputFiles(FIXTURE);
  await page
    .getByTestId('workbook-state')
    .filter({ hasText: /error|ready/ })
    .waitFor();
  await cellWith(page, '\\+33140001050').waitFor({ state: 'attached' });
}

/** A cell of the grid's accessible table (the canvas keeps one, of the visible cells, for screen readers). */
export function cellWith(page: Page, pattern: string): Locator {
  return page.locator('[role="grid"] [role="gridcell"]').filter({ hasText: new RegExp(`^${pattern}$`) });
}

/** The open cell editor (the grid's overlay). */
export function cellEditor(page: Page): Locator {
  return page.locator('#portal textarea, #portal input').first();
}

/** The grid's canvas on screen: clicks land relative to it. */
export async function gridBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await page.getByTestId('data-grid-canvas').boundingBox();
  if (!box) throw new Error('the grid has no size');
  return box;
}

/**
 * Clicks the grid's first cell (column A of the first listed row, A2 unfiltered), as a user
 * starts; the rest is keys. Waits until the live region names it (`name`).
 */
export async function clickFirstCell(page: Page, name = 'A2'): Promise<void> {
  const box = await gridBox(page);
  await clickGrid(page, box.x + 80, box.y + 36 + 10);
  await chosenCell(page, name);
}

/**
 * Clicks the grid at a point of the page and waits until the grid holds the keyboard focus. The
 * grid shows the clicked cell as chosen a few milliseconds before it takes the focus: keys sent
 * in between (a test sends them 5 ms apart, a person never) went to the button clicked before,
 * so an arrow was lost and the next edit landed on the wrong cell.
 */
export async function clickGrid(page: Page, x: number, y: number): Promise<void> {
  await page.mouse.click(x, y);
  await page.locator('.workbook-grid :focus').waitFor({ state: 'attached' });
}

/** Waits until the live region below the grid names the chosen cell, as a screen reader hears it. */
export async function chosenCell(page: Page, name: string): Promise<void> {
  await page
    .getByTestId('cell-issues')
    .filter({ hasText: new RegExp(`^${name}\\b`) })
    .waitFor();
}

export async function press(page: Page, key: string, times = 1): Promise<void> {
  for (let step = 0; step < times; step += 1) await page.keyboard.press(key);
}

/**
 * Two frames of the page. The grid's editor keeps what was typed in React state and Enter saves
 * that state, as a closure of the last render: a key sent in the same frame as the typing saved
 * the value the editor opened with (or nothing). A person never types that fast; a test does.
 */
export async function nextFrames(page: Page): Promise<void> {
  // A string: the page's DOM types are not this file's (Node) types.
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
}

/** Enter on the chosen cell opens its editor: the value replaces what it held, Enter keeps it. */
export async function editChosenCell(page: Page, value: string): Promise<void> {
  await page.keyboard.press('Enter');
  const editor = cellEditor(page);
  await editor.waitFor();
  await editor.fill(value);
  await nextFrames(page);
  await editor.press('Enter');
  await editor.waitFor({ state: 'detached' });
}

/** What the spreadsheet's clipboard gives the page on Ctrl+V: a paste event carrying the block as text/plain. */
export async function pasteFromSpreadsheet(page: Page, tsv: string): Promise<void> {
  // A string: the page's DOM types are not this file's (Node) types.
  await page.evaluate(`(() => {
    const data = new DataTransfer();
    data.setData('text/plain', ${JSON.stringify(tsv)});
    document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  })()`);
}

/** The workbook the test opened: the newest of the fixture's name (each test stages its own), once its sheets are read. */
export async function openedWorkbook(env: E2eEnv): Promise<WorkbookInfo> {
  const list = await env.api.get<WorkbookList>('/workstation/workbooks/');
  const newest = list.body.workbooks
    .filter((workbook) => workbook.name === FIXTURE_NAME)
    .sort((a, b) => b.created_at.localeCompare(a.created_at))[0];
  for (let tries = 0; ; tries += 1) {
    const workbook = (await env.api.get<WorkbookAnswer>(`/workstation/workbooks/${newest.id}/`)).body.workbook;
    if (workbook.sheets.length > 0 || tries > 100) return workbook;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The sheet's rows as the service holds them now, each as its cells' text in column order. */
export async function serviceRows(env: E2eEnv, workbook: WorkbookInfo): Promise<string[][]> {
  const page = await env.api.get<WorkbookRowPage>(`/workstation/workbooks/${workbook.id}/sheets/0/rows/?limit=100`);
  const columns = workbook.sheets[0].columns;
  return page.body.rows.map((row) => columns.map((column) => textOf(row.cells[String(column.id)])));
}

/** A cell's text as the grid shows it. */
export function textOf(cell: WorkbookCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'object') return 'number' in cell ? String(cell.number) : JSON.stringify(cell);
  return String(cell);
}
