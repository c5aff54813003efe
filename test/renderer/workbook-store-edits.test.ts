import { describe, expect, it } from 'vitest';
import type {
  WorkbookEditRequest,
  WorkbookEditResult,
  WorkbookInfo,
  WorkbookIssue,
  WorkbookRow,
  WorkbookRowPage,
  WorkbookSheet,
} from '../../main/service/contract/workbook-api';
import { ApiClient } from '../../renderer/src/api/api-client';
import { createWorkbookStore } from '../../renderer/src/store/workbook-store';
import { badRowIndex, FakeTransport, fault, type RecordedCall } from './fake-transport';

const BASE = '/workstation/workbooks/w1/';
const ROWS = `${BASE}sheets/0/rows/`;

const column = (id: number, letter: string, name: string) => ({
  id,
  letter,
  name,
  group: '',
  title: '',
  field: name,
  required: false,
  text: true,
  choices: null,
});

const badNumber = (row: WorkbookRow): WorkbookIssue => ({
  sheet: 0,
  row_id: row.id,
  row: row.row,
  column_id: 1,
  column: 'A',
  field: 'pattern',
  severity: 'error',
  code: 'bad-pattern',
  message: `Row ${row.row}: 'not a number' is not a directory number.`,
  suggestion: null,
});

/**
 * A staged workbook held by the fake service: rows of two columns (1: Directory Number, 2:
 * Alerting Name) on a directive sheet; every edit moves the revision on by one, as the service does.
 */
class FakeWorkbook {
  revision = 3;
  rows: WorkbookRow[] = [
    ['+33140001050', 'Alice Martin'],
    ['+33140001051', 'Bruno Smith'],
    ['+44207941055', 'Grace Moreau'],
  ].map(([number, name], index) => ({
    id: 100 + index,
    row: 5 + index,
    index,
    cells: { 1: number, 2: name },
    issues: [],
    plan: null,
    outcome: null,
  }));
  directive = 'relation/LineRelation';
  redoable = false;
  edits: WorkbookEditRequest[] = [];

  sheet(): WorkbookSheet {
    return {
      index: 0,
      name: 'LineRelation',
      skipped: false,
      model_type: 'relation/LineRelation',
      layout: 'directive',
      directive: this.directive,
      first_row: 5,
      columns: [column(1, 'A', 'Directory Number'), column(2, 'B', 'Alerting Name')],
      rows: this.rows.length,
      errors: 0,
      warnings: 0,
    };
  }

  info(): WorkbookInfo {
    return {
      id: 'w1',
      name: 'lines.xlsx',
      owner: 'admin',
      hierarchy: 'sys.hcs.Telco.Acme.Paris',
      profile: null,
      checked_against: null,
      source: 'upload',
      state: 'validated',
      revision: this.revision,
      validated_revision: this.revision,
      can_undo: this.revision > 3,
      can_redo: this.redoable,
      counts: { rows: this.rows.length, errors: 0, warnings: 0, rows_with_errors: 0, rows_with_warnings: 0 },
      problem: null,
      mapping: null,
      created_at: '2026-11-26T10:00:00.000000',
      updated_at: '2026-11-26T10:00:00.000000',
      plan: null,
      load: null,
      sheets: [this.sheet()],
    };
  }

  page(call: RecordedCall): WorkbookRowPage {
    const query = new URLSearchParams(call.url.split('?')[1]);
    const find = query.get('find');
    const after = Number(query.get('after') ?? -1);
    const before = query.get('before');
    const skip = Number(query.get('skip') ?? 0);
    const limit = Number(query.get('limit') ?? 100);
    // As the service: `find` is case-insensitive, over every cell of the row.
    const passing = this.rows.filter(
      (row) => !find || Object.values(row.cells).some((cell) => String(cell).toLowerCase().includes(find.toLowerCase())),
    );
    const rows =
      before === null
        ? passing.filter((row) => row.index > after).slice(skip, skip + limit)
        : passing.filter((row) => row.index < Number(before)).slice(-limit);
    return {
      revision: this.revision,
      total: passing.length,
      skip,
      rows,
      next_after: rows.length === limit ? rows[rows.length - 1].index : null,
    };
  }

  edit(call: RecordedCall): { status?: number; body: unknown } {
    const request = call.body as WorkbookEditRequest;
    if (request.revision !== this.revision) return fault(409, 'revision-conflict', 'The workbook has moved on.');
    this.edits.push(request);
    this.revision += 1;
    // As the service: a set cell is stored, and a number that is not one is an error of its row.
    const issues: WorkbookIssue[] = [];
    if (request.edit.op === 'set') {
      for (const cell of request.edit.cells) {
        const row = this.rows.find((candidate) => candidate.id === cell.row_id);
        if (!row) continue;
        row.cells = { ...row.cells, [String(cell.column_id)]: cell.value };
        row.issues = cell.value === 'not a number' ? [badNumber(row)] : [];
        issues.push(...row.issues);
      }
    }
    const result: WorkbookEditResult = {
      success: true,
      revision: this.revision,
      can_undo: true,
      can_redo: false,
      changed: 1,
      revalidated: 1,
      issues,
      counts: this.info().counts,
    };
    return { body: result };
  }

  transport(): FakeTransport {
    return new FakeTransport()
      .on('GET', BASE, () => ({ body: { success: true, workbook: this.info() } }))
      .on('GET', ROWS, (call) => badRowIndex(new URLSearchParams(call.url.split('?')[1])) ?? { body: this.page(call) })
      .on('POST', `${BASE}edits/`, (call) => this.edit(call));
  }
}

async function opened(fake: FakeWorkbook) {
  const transport = fake.transport();
  const store = createWorkbookStore(new ApiClient(transport));
  await store.getState().open('w1');
  return { store, transport };
}

describe('workbook store: editing', () => {
  it('pastes a block from Excel as one edit of the revision shown, at the row and column chosen, with the TSV as copied', async () => {
    const fake = new FakeWorkbook();
    const { store } = await opened(fake);
    const tsv = '+33140001060\tNew One\r\n+33140001061\tNew Two\r\n+33140001062\t"Tab\there"\r\n';
    await store.getState().paste(1, 1, tsv);
    expect(fake.edits).toEqual([{ revision: 3, edit: { op: 'paste', sheet: 0, row_id: 101, column_id: 1, tsv } }]);
    // Answered with the new revision: the next edit is made on it.
    expect(store.getState().info?.revision).toBe(4);
  });

  it('fills down, inserts rows and deletes the rows chosen, each as one edit naming rows by id', async () => {
    const fake = new FakeWorkbook();
    const { store } = await opened(fake);
    await store.getState().fillDown([2], 0, 2);
    await store.getState().insertRows(1, 2);
    await store.getState().deleteRows(1, 2);
    expect(fake.edits.map((request) => [request.revision, request.edit])).toEqual([
      [3, { op: 'fill_down', sheet: 0, column_ids: [2], from_index: 0, to_index: 2 }],
      [4, { op: 'insert_rows', sheet: 0, at: 1, count: 2 }],
      [5, { op: 'delete_rows', sheet: 0, row_ids: [101, 102] }],
    ]);
  });

  it('reads every page again after rows moved, so the grid never shows a row where it was', async () => {
    const fake = new FakeWorkbook();
    const { store, transport } = await opened(fake);
    expect(store.getState().rowAt(1)?.cells['2']).toBe('Bruno Smith');
    // The service deletes the row: the rows after it move up.
    transport.on('POST', `${BASE}edits/`, (call) => {
      const answer = fake.edit(call);
      fake.rows = fake.rows.filter((row) => row.id !== 101).map((row, index) => ({ ...row, index }));
      return answer;
    });
    await store.getState().deleteRows(1, 1);
    expect(store.getState().rowAt(1)?.cells['2']).toBe('Grace Moreau');
    expect(store.getState().info?.sheets[0].rows).toBe(2);
  });

  it('replaces within the shown sheet with the options given, and says how many cells changed', async () => {
    const fake = new FakeWorkbook();
    const { store, transport } = await opened(fake);
    transport.on('POST', `${BASE}edits/`, (call) => {
      const answer = fake.edit(call);
      return { body: { ...(answer.body as WorkbookEditResult), changed: 2 } };
    });
    expect(await store.getState().replace('\\+331', '+339', { regex: true, matchCase: false })).toBe(2);
    expect(fake.edits[0].edit).toEqual({
      op: 'replace',
      find: '\\+331',
      replace: '+339',
      regex: true,
      match_case: false,
      within: { sheet: 0 },
    });
  });

  it('finds the next cell that matches after the chosen row, telling the case apart when asked, and wraps to the top', async () => {
    const fake = new FakeWorkbook();
    const { store, transport } = await opened(fake);
    expect(await store.getState().findNext('smith', {}, undefined)).toEqual({ index: 1, columnId: 2 });
    expect(transport.lastQuery(ROWS).get('find')).toBe('smith');
    // No cell chosen: from the top, with no `after` (the service refuses -1).
    expect(transport.lastQuery(ROWS).get('after')).toBeNull();
    // The service finds rows case-insensitively; "Match case" is told apart in the renderer.
    expect(await store.getState().findNext('smith', { matchCase: true }, undefined)).toBe('none');
    // After the last match, the search starts again from the first row.
    expect(await store.getState().findNext('+3314', {}, 1)).toEqual({ index: 0, columnId: 1 });
    expect(await store.getState().findNext('nobody', {}, 0)).toBe('none');
    expect(store.getState().fault).toBeUndefined();
  });

  it('finds the previous match, from the bottom with no cell chosen, wrapping round', async () => {
    const fake = new FakeWorkbook();
    const { store, transport } = await opened(fake);
    expect(await store.getState().findNext('+3314', {}, undefined, 'previous')).toEqual({ index: 1, columnId: 1 });
    expect(transport.lastQuery(ROWS).get('before')).toBe('3');
    expect(await store.getState().findNext('+3314', {}, 1, 'previous')).toEqual({ index: 0, columnId: 1 });
    // Before the first match: round to the last one.
    expect(await store.getState().findNext('+3314', {}, 0, 'previous')).toEqual({ index: 1, columnId: 1 });
  });

  it('says a refused find failed (its message in the fault), never that no cell matches', async () => {
    const fake = new FakeWorkbook();
    const { store, transport } = await opened(fake);
    // A back-reference: JavaScript takes it, RE2 (the service's) does not.
    transport.on('GET', ROWS, () => fault(400, 'validation-failed', 'Back-references are not supported.'));
    expect(await store.getState().findNext('(a)\\1', { regex: true }, undefined)).toBe('failed');
    expect(store.getState().fault?.message).toContain('Back-references');
  });

  it('edits the directive banner, sets several cells in one edit, and sends text as text', async () => {
    const fake = new FakeWorkbook();
    const { store } = await opened(fake);
    await store.getState().setDirective('relation/LineRelation sys.hcs.Telco.Acme.London');
    await store.getState().setCells([
      { row_id: 100, column_id: 1, value: '0033140001050' },
      { row_id: 101, column_id: 1, value: null },
    ]);
    expect(fake.edits.map((request) => request.edit)).toEqual([
      { op: 'directive', sheet: 0, text: 'relation/LineRelation sys.hcs.Telco.Acme.London' },
      {
        op: 'set',
        sheet: 0,
        cells: [
          { row_id: 100, column_id: 1, value: '0033140001050' },
          { row_id: 101, column_id: 1, value: null },
        ],
      },
    ]);
  });

  it('takes keys pressed faster than the service answers as one step each: undo, undo, redo on the revisions they made', async () => {
    const fake = new FakeWorkbook();
    const { store, transport } = await opened(fake);
    await store.getState().insertRows(0, 1);
    await store.getState().insertRows(0, 1);
    const steps: [string, number][] = [];
    for (const direction of ['undo', 'redo']) {
      transport.on('POST', `${BASE}${direction}/`, (call) => {
        steps.push([direction, (call.body as { revision: number }).revision]);
        fake.revision += 1;
        fake.redoable = true;
        return {
          body: {
            success: true,
            revision: fake.revision,
            can_undo: true,
            can_redo: true,
            changed: 1,
            revalidated: 0,
            issues: [],
            counts: fake.info().counts,
          },
        };
      });
    }
    // Not awaited one by one: as Ctrl+Z, Ctrl+Z, Ctrl+Shift+Z pressed in a row.
    await Promise.all([store.getState().step('undo'), store.getState().step('undo'), store.getState().step('redo')]);
    expect(steps).toEqual([
      ['undo', 5],
      ['undo', 6],
      ['redo', 7],
    ]);
    expect(store.getState().fault).toBeUndefined();
  });

  it('paints a typed cell at once, and its issues from the edit’s answer before any page is read again', async () => {
    const fake = new FakeWorkbook();
    const { store, transport } = await opened(fake);
    const seen: { text: unknown; issues: number; calls: number }[] = [];
    const stop = store.subscribe((state) => {
      const row = state.pages.get(0)?.[1];
      seen.push({ text: row?.cells['1'], issues: row?.issues.length ?? 0, calls: transport.calls.length });
    });
    await store.getState().setCell(101, 1, 'not a number');
    stop();
    const posted = transport.calls.findIndex((call) => call.method === 'POST');
    // Before the edit was even sent: the new text, no issue yet.
    const typed = seen.find((state) => state.text === 'not a number');
    expect(typed).toEqual({ text: 'not a number', issues: 0, calls: posted });
    const tinted = seen.find((state) => state.issues === 1);
    expect(tinted?.text).toBe('not a number');
    // The issue was painted with no read of the rows after the edit: only the POST had gone.
    expect(tinted?.calls).toBe(posted + 1);
    expect(
      store
        .getState()
        .rowAt(1)
        ?.issues.map((issue) => issue.code),
    ).toEqual(['bad-pattern']);
  });

  it('shows the refusal of an edit made on an old revision, and reads the workbook again so the next one is on the current', async () => {
    const fake = new FakeWorkbook();
    const { store } = await opened(fake);
    fake.revision = 9; // another window edited the workbook
    await store.getState().insertRows(0, 1);
    expect(store.getState().fault).toMatchObject({ status: 409, code: 'revision-conflict' });
    expect(store.getState().info?.revision).toBe(9);
    await store.getState().insertRows(0, 1);
    expect(fake.edits).toEqual([{ revision: 9, edit: { op: 'insert_rows', sheet: 0, at: 0, count: 1 } }]);
  });
});
