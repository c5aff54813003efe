import ExcelJS from 'exceljs';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { WorkbookAnswer, WorkbookInfo, WorkbookRowOutcome, WorkbookRowPage } from '../../main/service/contract/workbook-api';
import { LINE, lineByPattern } from './api-fixtures';
import { openSignedIn, PARIS } from './app-page';
import { screenshot } from './browser';
import { TRANSPORTS, type E2eEnv } from './environment';
import { useBrowser, useFlows } from './suite';
import {
  cellEditor,
  cellWith,
  chosenCell,
  clickFirstCell,
  editChosenCell,
  FIXTURE,
  openedWorkbook,
  openFixtureInGrid,
  pasteFromSpreadsheet,
  nextFrames,
  press,
  serviceRows,
} from './workbook-grid';

/**
 * Issue 13's acceptance flow, in its order, as a field engineer works a workbook: open the
 * LibreOffice-written LineRelation file; apply the fix of its numeric-directory-number warning;
 * fix an error by typing; paste a 3x5 block from a spreadsheet; undo twice and redo once; only
 * rows with errors and F8 through them (fixed by typing); plan; load with the progress bar and
 * each row's outcome, one row broken on purpose through the API (its key taken since the plan)
 * and retried alone once the break is undone; save, and read the file back with exceljs: exactly
 * the edited cells differ from the fixture. A screenshot of each state; every step checked
 * through the API too.
 */
const shared = useBrowser('workbook-acceptance');

const LONDON = 'sys.hcs.Telco.Acme.London';
const TEMPLATE = 'Acme Line Defaults';
const MISSPELT = 'Acme Line Defauts';

/** Three rows of five cells as LibreOffice Calc copies them (CRLF line ends); two name a template that does not exist. */
const BLOCK = [
  [LONDON, 'SEP00AA00001006', TEMPLATE, '+44207941061', 'Paste One'],
  [LONDON, 'SEP00AA00001007', MISSPELT, '+44207941062', 'Paste Two'],
  [PARIS, 'SEP00AA00000007', MISSPELT, '+33140001063', 'Paste Three'],
];
const BLOCK_TSV = BLOCK.map((row) => row.join('\t')).join('\r\n') + '\r\n';

/** The directory number typed over the first row's, once the mistake typed there is seen. */
const TYPED_NUMBER = '+33140001060';
/** The row whose key is taken through the API between the plan and the load (Bruno Smith's line). */
const BROKEN_ROW = 1;
const BROKEN_NUMBER = '+33140001051';

/**
 * The cells the flow leaves edited, by address on the LineRelation sheet, and what the saved file
 * holds there: the warning's fix (the number stored as its text), the typed number, the pasted
 * block with its two misspelt templates typed over.
 */
const EDITED: Record<string, string> = {
  D2: TYPED_NUMBER,
  D4: '00442079460123',
  ...Object.fromEntries(BLOCK.flatMap((row, at) => row.map((value, column) => [`${'ABCDE'[column]}${5 + at}`, value]))),
  C6: TEMPLATE,
  C7: TEMPLATE,
};

async function workbookNow(env: E2eEnv, id: string): Promise<WorkbookInfo> {
  const answer = await env.api.get<WorkbookAnswer>(`/workstation/workbooks/${id}/`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.workbook;
}

async function outcomes(env: E2eEnv, id: string): Promise<(WorkbookRowOutcome | null)[]> {
  const answer = await env.api.get<WorkbookRowPage>(`/workstation/workbooks/${id}/sheets/0/rows/?limit=100`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.rows.map((row) => row.outcome);
}

/** Types over the chosen cell, as a user does: the first key opens the editor with it, Enter keeps the value. */
async function typeOver(page: Page, value: string): Promise<void> {
  await page.keyboard.type(value[0]);
  const editor = cellEditor(page);
  await editor.waitFor();
  await editor.fill(value);
  await nextFrames(page);
  await editor.press('Enter');
  await editor.waitFor({ state: 'detached' });
}

/** Every cell of every sheet, by `sheet!address`, as exceljs reads its value. */
async function cellsOf(path: string): Promise<Map<string, unknown>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const cells = new Map<string, unknown>();
  book.eachSheet((sheet) => {
    sheet.eachRow({ includeEmpty: false }, (row) => {
      row.eachCell({ includeEmpty: false }, (cell) => {
        if (cell.value !== null && cell.value !== undefined) cells.set(`${sheet.name}!${cell.address}`, cell.value);
      });
    });
  });
  return cells;
}

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: a workbook from file to load and back', { timeout: 180_000 }, (transport) => {
  const flows = useFlows(transport, shared);

  it('opens the LibreOffice file, fixes, types, pastes, undoes and redoes, steps through its errors, plans, loads, retries a broken row alone, and saves only its edits', async () => {
    const env = flows.env();
    const page = await openSignedIn(env, flows.context());
    const shot = (name: string): Promise<string> => screenshot(page, transport, `acceptance-${name}`);
    const counts = page.getByTestId('workbook-counts');
    const cellIssues = page.getByTestId('cell-issues');
    const panel = page.getByTestId('issue-panel');
    const state = page.getByTestId('workbook-state');

    // Open: staged and checked, no error, its two numeric directory numbers warned about.
    await openFixtureInGrid(page, env);
    const workbook = await openedWorkbook(env);
    await counts.filter({ hasText: /^6 rows, 0 errors, 2 warnings$/ }).waitFor();
    const original = await serviceRows(env, workbook);
    await shot('01-opened');

    // The numeric-directory-number warning: the panel filters to its rows, F8 goes to the first, Ctrl+. applies its fix.
    await panel
      .getByRole('list', { name: 'Issues by code' })
      .getByRole('button', { name: /numeric/ })
      .click();
    await page
      .getByTestId('filter-status')
      .filter({ hasText: /^2 rows listed/ })
      .waitFor();
    await clickFirstCell(page, 'A4');
    await press(page, 'F8');
    await chosenCell(page, 'D4');
    await cellIssues.getByTestId('cell-fixes').waitFor();
    expect(await cellIssues.locator('.cell-issue.warning').textContent()).toMatch(/numeric cell read as the text '00442079460123'/);
    await shot('02-warning-fix');
    await press(page, 'Control+.');
    await counts.filter({ hasText: /, 1 warning$/ }).waitFor();
    await panel.getByRole('button', { name: 'Show all rows' }).click();
    expect((await serviceRows(env, workbook))[2][3]).toBe('00442079460123');

    // An error typed by mistake over the first directory number, then fixed by typing over it.
    await clickFirstCell(page);
    await press(page, 'ArrowRight', 3);
    await chosenCell(page, 'D2');
    await editChosenCell(page, 'not a number');
    await counts.filter({ hasText: / 1 error,/ }).waitFor();
    // Back to the cell (Enter moved the selection down, as in a spreadsheet).
    await clickFirstCell(page);
    await press(page, 'ArrowRight', 3);
    await chosenCell(page, 'D2');
    await cellIssues.locator('.cell-issue.error').waitFor();
    await shot('03-error-typed');
    await typeOver(page, TYPED_NUMBER);
    await counts.filter({ hasText: / 0 errors,/ }).waitFor();
    await cellWith(page, `\\${TYPED_NUMBER}`).waitFor({ state: 'attached' });
    await shot('04-error-fixed');

    // A 3x5 block pasted over the last three rows (A5:E7), as one revision, with two errors in it.
    await clickFirstCell(page);
    await press(page, 'ArrowDown', 3);
    await chosenCell(page, 'A5');
    const beforePaste = (await workbookNow(env, workbook.id)).revision;
    await pasteFromSpreadsheet(page, BLOCK_TSV);
    await cellWith(page, 'Paste Three').waitFor({ state: 'attached' });
    await counts.filter({ hasText: / 2 errors,/ }).waitFor();
    expect((await workbookNow(env, workbook.id)).revision).toBe(beforePaste + 1);
    const pasted = await serviceRows(env, workbook);
    expect(pasted.slice(3)).toEqual(BLOCK);
    await shot('05-pasted');

    // One more edit, a slip; undo twice (the slip, then the paste), redo once: the block is back, the slip is not.
    await clickFirstCell(page);
    await press(page, 'ArrowRight', 4);
    await chosenCell(page, 'E2');
    await editChosenCell(page, 'Slip');
    await cellWith(page, 'Slip').waitFor({ state: 'attached' });
    await press(page, 'Control+z');
    await cellWith(page, 'Slip').waitFor({ state: 'detached' });
    await press(page, 'Control+z');
    await cellWith(page, 'Paste Three').waitFor({ state: 'detached' });
    await counts.filter({ hasText: / 0 errors,/ }).waitFor();
    expect((await serviceRows(env, workbook)).slice(3)).toEqual(original.slice(3));
    await shot('06-undone-twice');
    await press(page, 'Control+Shift+z');
    await cellWith(page, 'Paste Three').waitFor({ state: 'attached' });
    await counts.filter({ hasText: / 2 errors,/ }).waitFor();
    expect(await serviceRows(env, workbook)).toEqual(pasted);
    await shot('07-redone');

    // Only rows with errors: the two pasted rows; F8 goes through their errors and wraps round.
    await panel.getByRole('checkbox', { name: 'Only rows with errors' }).check();
    await page
      .getByTestId('filter-status')
      .filter({ hasText: /^2 rows listed/ })
      .waitFor();
    await clickFirstCell(page, 'A6');
    for (const name of ['C6', 'C7', 'C6']) {
      await press(page, 'F8');
      await chosenCell(page, name);
      expect(await cellIssues.locator('.cell-issue.error').textContent()).toMatch(/CFT template 'Acme Line Defauts' was not found/);
    }
    await shot('08-only-errors');
    // Each fixed by typing the template's name over it.
    await typeOver(page, TEMPLATE);
    await counts.filter({ hasText: / 1 error,/ }).waitFor();
    // The fixed row leaves the list: what is listed now is the one left.
    await page
      .getByTestId('filter-status')
      .filter({ hasText: /^1 row listed/ })
      .waitFor();
    await press(page, 'F8');
    await chosenCell(page, 'C7');
    await typeOver(page, TEMPLATE);
    await counts.filter({ hasText: / 0 errors,/ }).waitFor();
    await panel.getByRole('checkbox', { name: 'Only rows with errors' }).uncheck();
    const edited = await serviceRows(env, workbook);
    expect(edited.map((row) => row[2])).toEqual([TEMPLATE, '', TEMPLATE, TEMPLATE, TEMPLATE, TEMPLATE]);

    // Plan: six adds, a badge on each row.
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    await page
      .getByTestId('plan-totals')
      .filter({ hasText: /^plan: 6 add, 0 modify, 0 delete, 0 unchanged, 0 conflict, 0 error$/ })
      .waitFor();
    const badges = page.locator('[role="grid"] [role="gridcell"]').filter({ hasText: /^(add|modify|delete|unchanged|conflict|error)$/ });
    await badges.first().waitFor({ state: 'attached' });
    expect(await badges.allTextContents()).toEqual(Array(6).fill('add'));
    await shot('09-planned');

    // Broken on purpose: since the plan, someone else made a line with the second row's number and partition.
    const taken = await env.api.post<{ pkid: string }>(`/api/${LINE}/?hierarchy=${encodeURIComponent(PARIS)}`, {
      data: { pattern: BROKEN_NUMBER, routePartitionName: '', alertingName: 'Taken meanwhile' },
    });
    expect(taken.status, taken.text).toBe(200);

    // Load: the progress bar fills, five rows load, the broken one is refused and offered for a retry.
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await state.filter({ hasText: /^loaded 5\/6, 1 failed$/ }).waitFor();
    const progress = page.getByRole('progressbar', { name: 'Load progress' });
    expect(await progress.getAttribute('value')).toBe('6');
    expect(await progress.getAttribute('max')).toBe('6');
    const retry = page.getByRole('button', { name: 'Retry 1 failed' });
    await retry.waitFor();
    const first = await workbookNow(env, workbook.id);
    expect(first.load).toMatchObject({ running: false, total: 6, loaded: 5, failed: 0, conflicts: 1, not_run: 0 });
    const firstOutcomes = await outcomes(env, workbook.id);
    expect(firstOutcomes.map((outcome) => outcome?.status)).toEqual(['loaded', 'conflict', 'loaded', 'loaded', 'loaded', 'loaded']);
    expect(firstOutcomes[BROKEN_ROW]?.message).toMatch(/already exists/);
    // Each row's outcome on the grid: the Outcome column follows Plan, past the sheet's five columns.
    await clickFirstCell(page);
    await press(page, 'ArrowRight', 6);
    await press(page, 'ArrowDown', BROKEN_ROW);
    await chosenCell(page, 'Outcome 3');
    const outcomeCells = page.locator('[role="grid"] [role="gridcell"]').filter({ hasText: /^(loaded|failed|conflict)$/ });
    await outcomeCells.first().waitFor({ state: 'attached' });
    expect((await outcomeCells.allTextContents()).sort()).toEqual(['conflict', 'loaded', 'loaded', 'loaded', 'loaded', 'loaded']);
    await cellIssues
      .getByTestId('row-outcome')
      .filter({ hasText: /^ ?Row 3: conflict \(.*already exists/ })
      .waitFor();
    await shot('10-loaded-one-failed');

    // The break undone, Retry runs that row alone: the others keep their first transactions.
    expect((await env.api.delete(`/api/${LINE}/${taken.body.pkid}/`)).status).toBe(200);
    expect(await lineByPattern(env.api, BROKEN_NUMBER)).toBeUndefined();
    await retry.click();
    await state.filter({ hasText: /^loaded 6\/6$/ }).waitFor();
    await retry.waitFor({ state: 'detached' });
    const retried = await workbookNow(env, workbook.id);
    expect(retried.load).toMatchObject({ running: false, total: 6, loaded: 6, failed: 0, conflicts: 0, not_run: 0 });
    expect(retried.load?.transaction_id).not.toBe(first.load?.transaction_id);
    const retriedOutcomes = await outcomes(env, workbook.id);
    expect(retriedOutcomes.map((outcome) => outcome?.status)).toEqual(Array(6).fill('loaded'));
    retriedOutcomes.forEach((outcome, row) => {
      if (row === BROKEN_ROW) expect(outcome?.transaction_id).not.toBe(firstOutcomes[row]?.transaction_id);
      else expect(outcome?.transaction_id).toBe(firstOutcomes[row]?.transaction_id);
    });
    // The retry's parent transaction ran one row: the broken one's new sub-transaction.
    const retriedRun = await env.api.get<{ data: { sub_transactions: { transaction_id: string; status: string }[] } }>(
      `/api/tool/Transaction/${retried.load?.transaction_id}/`,
    );
    expect(retriedRun.status, retriedRun.text).toBe(200);
    expect(retriedRun.body.data.sub_transactions.map((sub) => [sub.transaction_id, sub.status])).toEqual([
      [retriedOutcomes[BROKEN_ROW]?.transaction_id, 'Success'],
    ]);
    expect((await lineByPattern(env.api, BROKEN_NUMBER))?.data.alertingName).toBe('Bruno Smith');
    await cellIssues
      .getByTestId('row-outcome')
      .filter({ hasText: /^ ?Row 3: loaded/ })
      .waitFor();
    await shot('11-retried');

    // Save: read back with exceljs, exactly the edited cells differ from the fixture.
    const download: Promise<Download> = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save .xlsx' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('line-relation-libreoffice.xlsx');
    const savedPath = await saved.path();
    const [before, after] = await Promise.all([cellsOf(FIXTURE), cellsOf(savedPath)]);
    const sheet = [...before.keys()][0].split('!')[0];
    const differing = [...new Set([...before.keys(), ...after.keys()])]
      .filter((address) => JSON.stringify(before.get(address)) !== JSON.stringify(after.get(address)))
      .sort();
    expect(differing).toEqual(
      Object.keys(EDITED)
        .map((address) => `${sheet}!${address}`)
        .sort(),
    );
    for (const [address, value] of Object.entries(EDITED)) expect(after.get(`${sheet}!${address}`), address).toBe(value);
    // The warning's fix: a number in the file, its text now.
    expect(before.get(`${sheet}!D4`)).toBe(442079460123);
  });
});
