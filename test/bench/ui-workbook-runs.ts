import type { BrowserContext, Page } from 'playwright-core';
import type { WorkbookMarks } from './ui-workbook-probe';

/** Glide's default geometry, as the app leaves it: a header row of 36 px, rows of 34 px. */
const HEADER_HEIGHT = 36;
const ROW_HEIGHT = 34;
const TIMEOUT_MS = 30_000;
/** The renderer reads rows in pages of 200 (renderer/src/store/workbook-store.ts PAGE_ROWS). */
const PAGE_ROWS = 200;

/** What one run does: the workbook to open, the row its first grid row shows, the row jumped to, the cell edited. */
export interface WorkbookRunPlan {
  name: string;
  firstRowText: string;
  /** Grid row index scrolled to the top of the grid; its first cell must read `jumpRowText`. */
  jumpRow: number;
  jumpRowText: string;
  /** Grid row index (in view after the jump) whose Directory Number is edited, and the bad value typed. */
  editRow: number;
  editValue: string;
  /** Sheet column letter of the Directory Number, and how many columns right of A it is. */
  numberLetter: string;
  numberColumn: number;
  /** Grid row index of the next error after a grid row, as the sheet was written. */
  nextErrorAfter(row: number): number;
}

/** The four figures of one fresh page, as the probe recorded them. */
export interface WorkbookRun {
  open: WorkbookMarks;
  jump: WorkbookMarks;
  edit: WorkbookMarks;
  next: WorkbookMarks;
  /** The sheet row F8 had to reach (Excel row, e.g. 90009). */
  nextRow: number;
}

async function result(page: Page, name: string): Promise<WorkbookMarks> {
  const marks = await page.evaluate<WorkbookMarks>(`window.__wbBench.result(${JSON.stringify(name)}, ${TIMEOUT_MS})`);
  if (marks.failure) throw new Error(marks.failure);
  return marks;
}

const probe = (page: Page, call: string): Promise<unknown> => page.evaluate(`window.__wbBench.${call}`);

/** The live region below the grid names the chosen cell first (`E90002: no issue`, `E90002 error: ...`). */
async function chosenCell(page: Page, name: string): Promise<void> {
  await page
    .getByTestId('cell-issues')
    .filter({ hasText: new RegExp(`^\\s*${name}\\b`) })
    .waitFor({ timeout: TIMEOUT_MS });
}

/** A fresh page on the app's frame (the session cookie is set), then the Workbooks area with the workbook listed. */
export async function openWorkbooksArea(context: BrowserContext, origin: string, name: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${origin}/`, { waitUntil: 'commit' });
  await page.waitForSelector('#root[data-app-state="ready"]', { timeout: TIMEOUT_MS });
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Workbooks' }).click();
  await workbookButton(page, name).waitFor({ timeout: TIMEOUT_MS });
  return page;
}

export const workbookButton = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Workbooks' }).getByRole('button', { name, exact: true }).first();

/** The click on the workbook's name to its first grid row's cells in the grid, painted. */
export async function measureOpen(page: Page, name: string, firstRowText: string): Promise<WorkbookMarks> {
  await probe(page, `armPage('open', 0)`);
  await workbookButton(page, name).click();
  const marks = await result(page, 'open');
  await rowShows(page, 0, firstRowText);
  return marks;
}

/** Outside the time: glide's accessible table (rebuilt 200 ms after the canvas) shows the text in that grid row. */
async function rowShows(page: Page, row: number, text: string): Promise<void> {
  const shown = await page.evaluate<boolean>(`window.__wbBench.rowHas(${row}, ${JSON.stringify(text)}, ${TIMEOUT_MS})`);
  if (!shown) throw new Error(`grid row ${row} does not show '${text}'`);
}

/**
 * One run on a fresh page: open the workbook; scroll the grid's scroller to row `jumpRow` (what a
 * drag of the scroll bar or Ctrl+G would end in) to that row's cells painted; click the edited
 * row's first cell, arrow to its Directory Number, Enter, type a bad number, and Enter to the row
 * read again with its new value and issues, painted; F8 to the next error read out below the grid.
 */
export async function measureWorkbookRun(context: BrowserContext, origin: string, plan: WorkbookRunPlan): Promise<WorkbookRun> {
  const page = await openWorkbooksArea(context, origin, plan.name);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    const open = await measureOpen(page, plan.name, plan.firstRowText);

    await probe(page, `armPage('jump', ${Math.floor(plan.jumpRow / PAGE_ROWS)})`);
    const scrolled = await page.evaluate<boolean>(`(() => {
      const scroller = document.querySelector('.dvn-scroller');
      if (!scroller) return false;
      window.__wbBench.startNow();
      scroller.scrollTop = ${plan.jumpRow * ROW_HEIGHT};
      return true;
    })()`);
    if (!scrolled) throw new Error("the grid has no scroller (glide's .dvn-scroller)");
    const jump = await result(page, 'jump');
    await rowShows(page, plan.jumpRow, plan.jumpRowText);

    const box = await page.getByTestId('data-grid-canvas').boundingBox();
    if (!box) throw new Error('the grid has no size');
    const sheetRow = plan.editRow + 2;
    await page.mouse.click(box.x + 120, box.y + HEADER_HEIGHT + (plan.editRow - plan.jumpRow + 0.5) * ROW_HEIGHT);
    await chosenCell(page, `A${sheetRow}`);
    for (let step = 0; step < plan.numberColumn; step += 1) await page.keyboard.press('ArrowRight');
    await chosenCell(page, `${plan.numberLetter}${sheetRow}: no issue`);
    await page.keyboard.press('Enter');
    const editor = page.locator('#portal textarea, #portal input').first();
    await editor.waitFor({ timeout: TIMEOUT_MS });
    await editor.fill(plan.editValue);
    await probe(page, `armNewRows('edit')`);
    await editor.press('Enter');
    const edit = await result(page, 'edit');
    await rowShows(page, plan.editRow, plan.editValue);

    // Enter moved the selection down a row (as in a spreadsheet); F8 goes to the first error after it.
    const chosen = /^\s*[A-Z]+(\d+)/.exec((await page.getByTestId('cell-issues').textContent()) ?? '');
    if (!chosen) throw new Error('no chosen cell after the edit');
    const nextRow = plan.nextErrorAfter(Number(chosen[1]) - 2) + 2;
    await probe(page, `armCellIssue('next', ${JSON.stringify(`${plan.numberLetter}${nextRow}`)})`);
    await page.keyboard.press('F8');
    const next = await result(page, 'next');
    if (errors.length > 0) throw new Error(`the page threw: ${errors.join('; ')}`);
    return { open, jump, edit, next, nextRow };
  } finally {
    await page.close();
  }
}
