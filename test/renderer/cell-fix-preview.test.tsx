// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkbookIssue, WorkbookIssueList, WorkbookRow } from '../../main/service/contract/workbook-api';
import { createStores, StoresContext } from '../../renderer/src/store/stores';
import { CellFix } from '../../renderer/src/views/workbooks/CellFix';
import { FakeTransport } from './fake-transport';
import { workbookInfo } from './workbook-fixtures';

afterEach(cleanup);

/**
 * "Apply to all n like it" shows what each cell becomes before anything is applied (issue 29,
 * point 3): the number whose + the inventory holds gets it back, the one whose + cannot be known
 * keeps its digits, each shown as old -> new, and no edit is sent until "Apply these n changes".
 */
const BASE = '/workstation/workbooks/w1/';
const DN = 4;
const CODE = 'numeric-in-text-column';

function issue(index: number, value: string, label: string): WorkbookIssue {
  return {
    sheet: 0,
    row_id: 100 + index,
    row: index + 2,
    column_id: DN,
    column: 'D',
    field: 'pattern',
    severity: 'warning',
    code: CODE,
    message: `${CODE} here`,
    suggestion: { label, value },
  };
}

const ISSUES = [
  issue(0, '+33140001030', "Store it as the text '+33140001030', as the inventory holds it (33140001030 -> +33140001030)"),
  issue(1, '33149999902', "Store it as the text '33149999902': a + or a leading 0 it may have had cannot be known"),
];
const ROWS: WorkbookRow[] = [
  { id: 100, row: 2, index: 0, cells: { [DN]: 33140001030 }, issues: [ISSUES[0]], plan: null, outcome: null },
  { id: 101, row: 3, index: 1, cells: { [DN]: 33149999902 }, issues: [ISSUES[1]], plan: null, outcome: null },
];
const COUNTS: WorkbookIssueList = {
  revision: 7,
  total: 2,
  issues: ISSUES,
  by_code: [{ code: CODE, severity: 'warning', count: 2 }],
  by_column: [{ sheet: 0, column_id: DN, column: 'D', errors: 0, warnings: 2 }],
  fixable: [{ sheet: 0, code: CODE, column_id: DN, count: 2 }],
};

function transport(): FakeTransport {
  const info = workbookInfo(
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
        rows: 2,
        errors: 0,
        warnings: 2,
        columns: [
          {
            id: DN,
            letter: 'D',
            name: 'Directory Number',
            group: '',
            title: 'Directory Number',
            field: null,
            required: false,
            text: true,
            choices: null,
          },
        ],
      },
    ],
    { revision: 7, counts: { rows: 2, errors: 0, warnings: 2, rows_with_errors: 0, rows_with_warnings: 2 } },
  );
  return new FakeTransport()
    .on('GET', BASE, { body: { success: true, workbook: info } })
    .on('GET', `${BASE}issues/`, { body: COUNTS })
    .on('GET', `${BASE}sheets/0/rows/`, { body: { revision: 7, total: 2, skip: 0, rows: ROWS, next_after: null } });
}

describe('apply to all like it', () => {
  it('lists each cell as old -> new before anything is applied', async () => {
    const fake = transport();
    const stores = createStores(fake);
    await stores.workbook.getState().open('w1');
    await stores.workbookIssues.getState().reload();
    render(
      <StoresContext.Provider value={stores}>
        <CellFix issues={[ISSUES[0]]} rowId={100} columnId={DN} />
      </StoresContext.Provider>,
    );
    expect(screen.getByTestId('cell-fixes').textContent).toContain('(33140001030 -> +33140001030)');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Apply to all 2 like it' })));
    const items = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(items).toEqual(['Row 2: 33140001030 -> +33140001030', 'Row 3: 33149999902 -> 33149999902']);
    const query = fake.lastQuery(`${BASE}sheets/0/rows/`);
    expect([query.get('code'), query.get('column')]).toEqual([CODE, String(DN)]);
    // Shown, not applied: no edit until the engineer confirms what they saw; Cancel closes the list.
    expect(fake.calls.filter((call) => call.method === 'POST')).toEqual([]);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Cancel' })));
    expect(screen.queryAllByRole('listitem')).toEqual([]);
    expect(fake.calls.filter((call) => call.method === 'POST')).toEqual([]);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Apply to all 2 like it' })));
    fake.on('POST', `${BASE}edits/`, {
      body: { success: true, revision: 8, can_undo: true, can_redo: false, changed: 2, revalidated: 2, issues: [], counts: COUNTS },
    });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Apply these 2 changes' })));
    expect(fake.calls.filter((call) => call.method === 'POST').map((call) => call.body)).toMatchObject([
      { edit: { op: 'apply_suggestions', sheet: 0, code: CODE, column_id: DN } },
    ]);
  });
});
