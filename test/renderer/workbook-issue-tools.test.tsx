// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkbookInfo, WorkbookIssue, WorkbookIssueList, WorkbookRow } from '../../main/service/contract/workbook-api';
import { createStores, StoresContext, type Stores } from '../../renderer/src/store/stores';
import { findError } from '../../renderer/src/views/workbooks/error-navigation';
import { IssuePanel } from '../../renderer/src/views/workbooks/IssuePanel';
import { CellFix } from '../../renderer/src/views/workbooks/CellFix';
import { LoadedRowNote } from '../../renderer/src/views/workbooks/LoadedRowNote';
import { keepSamples, loadFigures } from '../../renderer/src/views/workbooks/load-rate';
import { infoCell, infoColumns, infoKindsOf } from '../../renderer/src/views/workbooks/row-info-columns';
import { gutterCell, gutterSelection } from '../../renderer/src/views/workbooks/row-gutter';
import { badRowIndex, FakeTransport } from './fake-transport';
import { workbookInfo } from './workbook-fixtures';

afterEach(cleanup);

const BASE = '/workstation/workbooks/w1/';
const ROWS = `${BASE}sheets/0/rows/`;
const DN = 4;

function info(extra: Partial<WorkbookInfo> = {}): WorkbookInfo {
  return workbookInfo(
    'w1',
    [
      {
        index: 0,
        name: 'LineRelation',
        skipped: false,
        model_type: 'relation/LineRelation',
        layout: 'compact',
        directive: null,
        first_row: 2,
        rows: 10,
        errors: 2,
        warnings: 3,
        columns: [1, 2, 3, DN].map((id, place) => ({
          id,
          letter: 'ABCD'[place],
          name: ['Hierarchy Node', 'Action', 'Device', 'Directory Number'][place],
          group: '',
          title: ['Hierarchy Node', 'Action', 'Device', 'Directory Number'][place],
          field: null,
          required: false,
          text: place === 3,
          choices: null,
        })),
      },
    ],
    { name: 'lines.xlsx', counts: { rows: 10, errors: 2, warnings: 3, rows_with_errors: 2, rows_with_warnings: 3 }, ...extra },
  );
}

function issue(
  index: number,
  columnId: number,
  severity: 'error' | 'warning',
  code: string,
  suggestion: WorkbookIssue['suggestion'] = null,
): WorkbookIssue {
  return {
    sheet: 0,
    row_id: 100 + index,
    row: index + 2,
    column_id: columnId,
    column: 'D',
    field: 'pattern',
    severity,
    code,
    message: `${code} here`,
    suggestion,
  };
}

function row(index: number, issues: WorkbookIssue[] = [], extra: Partial<WorkbookRow> = {}): WorkbookRow {
  return { id: 100 + index, row: index + 2, index, cells: { [DN]: `+3314000${index}` }, issues, plan: null, outcome: null, ...extra };
}

const COUNTS: WorkbookIssueList = {
  revision: 7,
  total: 5,
  issues: [],
  by_code: [
    { code: 'numeric-in-text-column', severity: 'warning', count: 3 },
    { code: 'invalid-number', severity: 'error', count: 2 },
  ],
  by_column: [{ sheet: 0, column_id: DN, column: 'D', errors: 2, warnings: 3 }],
  fixable: [{ sheet: 0, code: 'numeric-in-text-column', column_id: DN, count: 3 }],
};

/** A workbook of ten rows, errors on rows 2 (column D) and 7 (columns B and D), answered by the service's filters. */
function transport(): FakeTransport {
  const rows = Array.from({ length: 10 }, (_, index) =>
    row(
      index,
      index === 2
        ? [issue(2, DN, 'error', 'invalid-number')]
        : index === 7
          ? [issue(7, 2, 'error', 'bad-action'), issue(7, DN, 'error', 'invalid-number')]
          : [],
    ),
  );
  return new FakeTransport()
    .on('GET', BASE, { body: { success: true, workbook: info() } })
    .on('GET', `${BASE}issues/`, { body: COUNTS })
    .on('GET', ROWS, (call) => {
      const query = new URLSearchParams(call.url.split('?')[1]);
      const refused = badRowIndex(query);
      if (refused) return refused;
      let found = rows;
      if (query.get('only') === 'errors' || query.get('code') !== null) found = found.filter((candidate) => candidate.issues.length > 0);
      const after = query.get('after');
      const before = query.get('before');
      if (after !== null) found = found.filter((candidate) => candidate.index > Number(after));
      if (before !== null) found = found.filter((candidate) => candidate.index < Number(before)).slice(-Number(query.get('limit')));
      const skip = Number(query.get('skip') ?? 0);
      const page = found.slice(skip, skip + Number(query.get('limit') ?? 100));
      return { body: { revision: 7, total: found.length, skip, rows: page, next_after: null } };
    });
}

async function opened(fake = transport()): Promise<{ stores: Stores; fake: FakeTransport }> {
  const stores = createStores(fake);
  await stores.workbook.getState().open('w1');
  await stores.workbookIssues.getState().reload();
  return { stores, fake };
}

describe('the issue panel', () => {
  it('shows counts per code and per column, and lists only the rows of the one clicked, or only rows with errors', async () => {
    const { stores, fake } = await opened();
    render(
      <StoresContext.Provider value={stores}>
        <IssuePanel sheet={stores.workbook.getState().info?.sheets[0]} onNavigate={() => undefined} onHistory={() => undefined} />
      </StoresContext.Provider>,
    );
    const byCode = screen.getByRole('list', { name: 'Issues by code' });
    expect(
      within(byCode)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['numeric-in-text-column3', 'invalid-number2']);
    expect(within(screen.getByRole('list', { name: 'Issues by column' })).getByRole('button').textContent).toBe(
      'D Directory Number2 E 3 W',
    );

    await act(async () => fireEvent.click(within(byCode).getByRole('button', { name: /invalid-number/ })));
    expect(fake.lastQuery(ROWS).get('code')).toBe('invalid-number');
    expect(
      within(byCode)
        .getByRole('button', { name: /invalid-number/ })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    expect((await screen.findByTestId('filter-status')).textContent).toMatch(/^2 rows listed/);
    // The grid's row 1 is now the sheet's row 7 (its Excel row 9).
    expect(stores.workbook.getState().rowAt(1)?.row).toBe(9);

    await act(async () => fireEvent.click(screen.getByRole('checkbox', { name: 'Only rows with errors' })));
    expect(fake.lastQuery(ROWS).get('only')).toBe('errors');
    expect(fake.lastQuery(ROWS).get('code')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Show all rows' })));
    expect(stores.workbook.getState().filteredRows).toBeUndefined();
    expect(fake.lastQuery(ROWS).get('only')).toBeNull();
  });

  it('reads the counts again when an edit moves the revision', async () => {
    const { stores, fake } = await opened();
    const reads = (): number => fake.calls.filter((call) => call.url.startsWith(`${BASE}issues/`)).length;
    const before = reads();
    const shown = stores.workbook.getState().info as WorkbookInfo;
    await act(async () => stores.workbook.setState({ info: { ...shown, revision: 8 } }));
    expect(reads()).toBe(before + 1);
  });
});

describe('next and previous error (F8, Shift+F8)', () => {
  it('walks along the row first, then asks the service for the next row with an error, and wraps', async () => {
    const { stores, fake } = await opened();
    const deps = { client: stores.client, workbook: stores.workbook };
    expect(await findError(deps, undefined, 'next')).toEqual({ row: 2, column: 3 });
    const toSeven = await findError(deps, { row: 2, column: 3 }, 'next');
    expect(toSeven).toEqual({ row: 7, column: 1 });
    expect(fake.lastQuery(ROWS).get('after')).toBe('2');
    expect(fake.lastQuery(ROWS).get('limit')).toBe('1');
    expect(await findError(deps, { row: 7, column: 1 }, 'next')).toEqual({ row: 7, column: 3 });
    // Past the last error: back to the first.
    expect(await findError(deps, { row: 7, column: 3 }, 'next')).toEqual({ row: 2, column: 3 });
    // Previous, from row 7's first error: the service's `before=7`, the row's last error cell.
    expect(await findError(deps, { row: 7, column: 1 }, 'previous')).toEqual({ row: 2, column: 3 });
    expect(fake.lastQuery(ROWS).get('before')).toBe('7');
  });

  it('with no cell chosen, starts from the first row (next) or the last (previous), and never sends an index the service refuses', async () => {
    const { stores, fake } = await opened();
    const deps = { client: stores.client, workbook: stores.workbook };
    expect(await findError(deps, undefined, 'next')).toEqual({ row: 2, column: 3 });
    expect(await findError(deps, undefined, 'previous')).toEqual({ row: 7, column: 3 });
    // Wrapping past the last error reads from the top, as a first F8 does.
    expect(await findError(deps, { row: 7, column: 3 }, 'next')).toEqual({ row: 2, column: 3 });
    expect(await findError(deps, { row: 2, column: 0 }, 'previous')).toEqual({ row: 7, column: 3 });
    const indexes = fake.calls
      .filter((call) => call.url.startsWith(ROWS))
      .flatMap((call) => ['after', 'before'].map((name) => new URLSearchParams(call.url.split('?')[1]).get(name)))
      .filter((value): value is string => value !== null);
    expect(indexes.every((value) => /^\d+$/.test(value))).toBe(true);
    expect(stores.workbook.getState().fault).toBeUndefined();
  });

  it('under "only rows with errors" steps through the grid rows of the filter', async () => {
    const { stores } = await opened();
    stores.workbook.getState().setFilter({ only: 'errors' });
    await stores.workbook.getState().readRow(0);
    const deps = { client: stores.client, workbook: stores.workbook };
    expect(await findError(deps, { row: 0, column: 3 }, 'next')).toEqual({ row: 1, column: 1 });
    expect(await findError(deps, { row: 1, column: 1 }, 'previous')).toEqual({ row: 0, column: 3 });
  });
});

describe('a loaded row', () => {
  it('says, when chosen, that it is the instance it made and that a change to it is loaded as a modify of that instance', async () => {
    const { stores } = await opened();
    const loaded = row(4, [], { outcome: { status: 'loaded', transaction_id: 'tx4', message: '', pkid: 'p-4' } });
    const failed = row(5, [], { outcome: { status: 'failed', transaction_id: 'tx5', message: 'already exists', pkid: null } });
    const { rerender } = render(
      <StoresContext.Provider value={stores}>
        <LoadedRowNote row={loaded} modelType="relation/LineRelation" />
      </StoresContext.Provider>,
    );
    expect(screen.getByTestId('loaded-note').textContent).toBe(
      'Row 6 is loaded: it is instance p-4 (open it). A change to this row is loaded as a modify of that instance by the next Load.',
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'open it' })));
    expect(stores.nav.getState().place).toMatchObject({ view: 'instance', href: '/api/relation/LineRelation/p-4/' });
    rerender(
      <StoresContext.Provider value={stores}>
        <LoadedRowNote row={failed} modelType="relation/LineRelation" />
      </StoresContext.Provider>,
    );
    expect(screen.queryByTestId('loaded-note')).toBeNull();
  });
});

describe('suggested fixes', () => {
  it('applies one with a click, and all like it as one service op', async () => {
    const fake = transport().on('POST', `${BASE}edits/`, {
      body: { success: true, revision: 8, can_undo: true, can_redo: false, changed: 1, revalidated: 1, issues: [], counts: info().counts },
    });
    const { stores } = await opened(fake);
    const suggested = issue(1, DN, 'warning', 'numeric-in-text-column', { label: "Store it as the text '33140001'", value: '33140001' });
    render(
      <StoresContext.Provider value={stores}>
        <CellFix issues={[suggested]} rowId={101} columnId={DN} />
      </StoresContext.Provider>,
    );
    expect(screen.getByTestId('cell-fixes').textContent).toContain("Suggested fix: Store it as the text '33140001'");
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Apply' })));
    const edits = (): unknown[] => fake.calls.filter((call) => call.url === `${BASE}edits/`).map((call) => call.body);
    expect(edits()[0]).toEqual({ revision: 7, edit: { op: 'set', sheet: 0, cells: [{ row_id: 101, column_id: DN, value: '33140001' }] } });
    // Apply to all first shows what it would change; its confirmation applies them, as one service op.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Apply to all 3 like it' })));
    expect(edits()).toHaveLength(1);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^Apply these \d+ changes$/ })));
    expect(edits()[1]).toMatchObject({ edit: { op: 'apply_suggestions', sheet: 0, code: 'numeric-in-text-column', column_id: DN } });
  });
});

describe('plan badges and load figures', () => {
  it('shows each row planned action in a Plan column after the sheet columns, uncoloured and marked when the plan is stale', () => {
    const planned = info({ plan: { revision: 7, totals: { add: 1, modify: 1, delete: 0, unchanged: 0, conflict: 0, error: 0 } } });
    expect(infoKindsOf(planned)).toEqual(['plan']);
    expect(
      infoKindsOf({
        ...planned,
        load: { transaction_id: 't', running: false, total: 1, loaded: 1, failed: 0, conflicts: 0, not_run: 0, changed: 0 },
      }),
    ).toEqual(['plan', 'outcome']);
    const modify = row(0, [], {
      plan: { action: 'modify', target_pkid: 'p', changes: [{ field: 'alertingName', old: 'A', new: 'B' }], message: null },
    });
    const cell = infoCell('plan', modify, planned);
    expect(cell).toMatchObject({ data: 'modify', readonly: true });
    expect(cell.themeOverride?.bgCell).toBeDefined();
    const stale = { ...planned, revision: 9 };
    expect(infoColumns(['plan'], stale)[0].title).toBe('Plan (stale)');
    expect(infoCell('plan', modify, stale)).toMatchObject({ data: 'modify?', themeOverride: undefined });
    const failed = row(0, [], { outcome: { status: 'failed', transaction_id: 'tx', message: 'already exists', pkid: null } });
    expect(infoCell('outcome', failed, planned)).toMatchObject({ data: 'failed' });
    // Each row's Excel number is the gutter's, before the sheet's columns, filtered or not.
    expect(gutterCell(row(7), false)).toMatchObject({ data: '9', readonly: true });
    expect(gutterCell(undefined, false).kind).toBe('loading');
    // A click on a row's number chooses that row; with Shift, the rows from the one chosen before.
    expect(gutterSelection(3, false, undefined).rows.toArray()).toEqual([3]);
    expect(gutterSelection(3, true, gutterSelection(1, false, undefined)).rows.toArray()).toEqual([1, 2, 3]);
  });

  it('works out rows per second and time left from the progress events of the last seconds', () => {
    let samples = keepSamples([], { at: 0, done: 0, total: 10_000 });
    samples = keepSamples(samples, { at: 1000, done: 2000, total: 10_000 });
    samples = keepSamples(samples, { at: 2000, done: 4000, total: 10_000 });
    expect(loadFigures(samples)).toEqual({ done: 4000, total: 10_000, rowsPerSecond: 2000, secondsLeft: 3 });
    // Ten seconds on, the first samples have left the window: the rate is the recent one.
    samples = keepSamples(samples, { at: 12_000, done: 5000, total: 10_000 });
    samples = keepSamples(samples, { at: 13_000, done: 5500, total: 10_000 });
    expect(loadFigures(samples)?.rowsPerSecond).toBeCloseTo(500);
  });
});
