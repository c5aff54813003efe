import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openSignedIn } from './app-page';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { useBrowser, useFlows } from './suite';
import {
  cellEditor,
  cellWith,
  chosenCell,
  clickFirstCell,
  openedWorkbook,
  openFixtureInGrid,
  pasteFromSpreadsheet,
  nextFrames,
  press,
  serviceRows,
} from './workbook-grid';

const shared = useBrowser('workbook-editing');

/** The fixture's rows (Hierarchy Node, Device, CFT Template, Directory Number, Alerting Name) as the grid shows them. */
const FIXTURE_ROWS = [
  ['sys.hcs.Telco.Acme.Paris', 'SEP00AA00000001', 'Acme Line Defaults', '+33140001050', 'Alice Martin'],
  ['sys.hcs.Telco.Acme.Paris', 'SEP00AA00000002', '', '+33140001051', 'Bruno Smith'],
  ['sys.hcs.Telco.Acme.London', 'SEP00AA00001003', 'Acme Line Defaults', '442079460123', 'Grace Moreau'],
  ['sys.hcs.Telco.Acme.Paris', '', '', '33140001052', 'Chloé Dubois'],
  ['sys.hcs.Telco.Acme.Paris', 'SEP00AA00000004', '', '0033140001053', ' '],
  ['sys.hcs.Telco.Acme.London', 'SEP00AA00001005', '', '+44207941055', 'Émilie "Q" <&> Brown'],
];

/** Three rows of five cells, as LibreOffice Calc puts them on the clipboard (CRLF line ends, empty cells kept). */
const BLOCK = [
  ['sys.hcs.Telco.Acme.Paris', 'SEP00AA00000061', 'Acme Line Defaults', '+33140001061', 'Paste One'],
  ['sys.hcs.Telco.Acme.Paris', 'SEP00AA00000062', '', '+33140001062', 'Paste Two'],
  ['sys.hcs.Telco.Acme.London', 'SEP00AA00001063', '', '0044207941063', 'Paste Three'],
];
const BLOCK_TSV = BLOCK.map((row) => row.join('\t')).join('\r\n') + '\r\n';

/** What Ctrl+C puts on the clipboard: the copy event the page answers, read back as text/plain. */
async function copiedText(page: Page): Promise<string> {
  return page.evaluate<string>(`(() => {
    const data = new DataTransfer();
    document.activeElement.dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true }));
    return data.getData('text/plain');
  })()`);
}

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: editing a workbook in the grid', { timeout: 90_000 }, (transport) => {
  const flows = useFlows(transport, shared);

  it('pastes a 3x5 block from a spreadsheet at the chosen cell as one revision, copies cells out, and one undo takes the block back', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await openFixtureInGrid(page, flows.env());
    const before = await openedWorkbook(flows.env());
    expect(await serviceRows(flows.env(), before)).toEqual(FIXTURE_ROWS);

    // The fourth row's first cell (A5), then the block as copied from LibreOffice.
    await clickFirstCell(page);
    await press(page, 'ArrowDown', 3);
    await chosenCell(page, 'A5');
    await pasteFromSpreadsheet(page, BLOCK_TSV);
    await cellWith(page, 'Paste Three').waitFor({ state: 'attached' });
    await cellWith(page, '0044207941063').waitFor({ state: 'attached' });
    const pasted = await openedWorkbook(flows.env());
    // One edit: one revision, the block over rows 4 to 6 and nothing else, the zeros of its number kept.
    expect(pasted.revision).toBe(before.revision + 1);
    expect(await serviceRows(flows.env(), pasted)).toEqual([...FIXTURE_ROWS.slice(0, 3), ...BLOCK]);
    await screenshot(page, transport, 'workbook-pasted');

    // Copy: the chosen cell and the one right of it, as a spreadsheet takes them.
    await press(page, 'Shift+ArrowRight');
    expect(await copiedText(page)).toBe('sys.hcs.Telco.Acme.Paris\tSEP00AA00000061');

    // One undo takes the whole block back.
    await press(page, 'Control+z');
    await cellWith(page, 'Paste Three').waitFor({ state: 'detached' });
    expect(await serviceRows(flows.env(), before)).toEqual(FIXTURE_ROWS);
  });

  it('fills down, inserts and deletes a row, finds and replaces, undoes twice and redoes once, with the keyboard alone', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await openFixtureInGrid(page, flows.env());
    const workbook = await openedWorkbook(flows.env());
    const counts = page.getByTestId('workbook-counts');

    // Fill down: Alerting Name of the first row over the second (E2:E3, Ctrl+D).
    await clickFirstCell(page);
    await press(page, 'ArrowRight', 4);
    await chosenCell(page, 'E2');
    await press(page, 'Shift+ArrowDown');
    await press(page, 'Control+d');
    await cellWith(page, 'Alice Martin').nth(1).waitFor({ state: 'attached' });
    expect((await serviceRows(flows.env(), workbook))[1][4]).toBe('Alice Martin');

    // Insert a row above the second (Ctrl+Shift++), then delete it again (Ctrl+-).
    await press(page, 'ArrowDown');
    await chosenCell(page, 'E3');
    await press(page, 'Control+Shift+Equal');
    await counts.filter({ hasText: /^7 rows/ }).waitFor();
    expect((await serviceRows(flows.env(), workbook))[1]).toEqual(['', '', '', '', '']);
    await screenshot(page, transport, 'workbook-row-inserted');
    await press(page, 'Control+Minus');
    await counts.filter({ hasText: /^6 rows/ }).waitFor();
    expect((await serviceRows(flows.env(), workbook))[1][4]).toBe('Alice Martin');

    // Find and replace (Ctrl+H): "Find next" moves the selection to the first London cell (A4).
    await press(page, 'Control+h');
    const bar = page.getByRole('search', { name: 'Find and replace' });
    await page.keyboard.type('acme.london');
    await press(page, 'Enter');
    await chosenCell(page, 'A4');
    await press(page, 'Tab');
    await page.keyboard.type('Acme.Paris');
    // Past Match case, Regular expression and Find next, to Replace all.
    await press(page, 'Tab', 4);
    await press(page, 'Enter');
    // Asked first, with the count and the first changes; Enter on its button replaces.
    const asked = page.getByRole('alertdialog', { name: 'Replace all' });
    await asked.waitFor();
    expect(await asked.textContent()).toContain('in 2 cells?');
    expect(await asked.textContent()).toMatch(/Row 4, [^:]+: “sys\.hcs\.Telco\.Acme\.London” → “sys\.hcs\.Telco\.Acme\.Paris”/);
    await screenshot(page, transport, 'workbook-replace-asked');
    await asked.getByRole('button', { name: 'Replace all' }).click();
    await bar.getByText('Replaced in 2 cells.').waitFor();
    await screenshot(page, transport, 'workbook-replaced');
    expect((await serviceRows(flows.env(), workbook)).map((row) => row[0])).toEqual(Array(6).fill('sys.hcs.Telco.Acme.Paris'));
    await press(page, 'Escape');
    await bar.waitFor({ state: 'detached' });

    // Undo twice: the replace, then the delete (the inserted row is back); redo once: deleted again.
    await press(page, 'Control+z');
    await cellWith(page, 'sys\\.hcs\\.Telco\\.Acme\\.London').first().waitFor({ state: 'attached' });
    await press(page, 'Control+z');
    await counts.filter({ hasText: /^7 rows/ }).waitFor();
    await press(page, 'Control+Shift+z');
    await counts.filter({ hasText: /^6 rows/ }).waitFor();
    const expected = FIXTURE_ROWS.map((row) => [...row]);
    expected[1][4] = 'Alice Martin';
    expect(await serviceRows(flows.env(), workbook)).toEqual(expected);
    await screenshot(page, transport, 'workbook-undo-redo');
  });

  it('starts editing a cell when a character is typed on it, and shows a cell’s issue on hover', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await openFixtureInGrid(page, flows.env());
    const workbook = await openedWorkbook(flows.env());

    // Typing on the chosen cell opens its editor with what was typed (Enter is not needed).
    await clickFirstCell(page);
    await press(page, 'ArrowRight', 4);
    await chosenCell(page, 'E2');
    await press(page, 'Z');
    const editor = cellEditor(page);
    await editor.waitFor();
    expect(await editor.inputValue()).toBe('Z');
    await page.keyboard.type('oé');
    expect(await editor.inputValue()).toBe('Zoé');
    await nextFrames(page);
    await press(page, 'Enter');
    await cellWith(page, 'Zoé').waitFor({ state: 'attached' });
    expect((await serviceRows(flows.env(), workbook))[0][4]).toBe('Zoé');

    // The third row's directory number is a number in the file: its warning shows where the pointer rests.
    await press(page, 'ArrowLeft');
    await press(page, 'ArrowDown');
    await chosenCell(page, 'D4');
    await press(page, 'Enter');
    const box = await editor.boundingBox();
    if (!box) throw new Error('the editor has no size');
    await press(page, 'Escape');
    await editor.waitFor({ state: 'detached' });
    // Onto the cell from its left neighbour, as a pointer comes.
    await page.mouse.move(box.x - 40, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
    const tooltip = page.getByRole('tooltip');
    await tooltip.waitFor();
    expect(await tooltip.textContent()).toMatch(/^D4 warning: /);
    await screenshot(page, transport, 'workbook-hover-issue');
  });
});
