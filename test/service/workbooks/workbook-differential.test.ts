import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principalOfUser } from '../../../main/service/auth/principal';
import type { WorkbookInfo } from '../../../main/service/contract/workbook-api';
import { columnLetters } from '../../../main/service/sheets/sheet-xml-scan';
import { validateFull } from '../../../main/service/workbooks/staged-revalidate';
import type { RowOutcome } from '../../../main/service/workbooks/staged-validator';
import { fixture, workbookOf } from '../bulk-validate-helpers';
import { openTestService, PARIS, type TestService } from '../helpers';
import { issues, plainIssues, rows, saved, settled, stage, validateFileIssues, type PlainIssue } from './workbook-helpers';
import { randomEdit, seeded } from './workbook-random-edits';

/**
 * Incremental validation against the whole: after each of 20 random edits, for 200 seeded
 * sequences on each of two workbooks (the spec's LineRelation sheet as LibreOffice wrote it, and
 * a two-sheet directive-layout workbook whose second sheet uses a phone the first adds), the
 * issues stored by incremental validation equal a full validation of the same rows, suggestions
 * included; and at the end of each sequence, the full validation equals `method=validate` of the
 * workbook saved as a file.
 */
const SEQUENCES = 200;
const EDITS = 20;

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

async function directiveBook(): Promise<Buffer> {
  return workbookOf([
    {
      name: 'Phone',
      rows: [
        ['Hierarchy Node', 'name', 'product', 'protocol'],
        [PARIS, 'SEPNEW0001', 'Cisco 8845', 'SIP'],
      ],
    },
    {
      name: 'Lines',
      rows: [
        [`entity: relation/LineRelation; hierarchy: ${PARIS}; parallel: false`],
        ['Action', 'summary_device', 'pattern', 'alertingName', 'routePartitionName'],
        ['', 'Line', 'Line', 'Line', 'Line'],
        ['Action', 'Device', 'Directory Number', 'Alerting Name', 'Route Partition'],
        ['add', 'SEPNEW0001', '+33140001050', 'New One', 'Paris-PT'],
        ['add', 'SEP00AA00000001', '+33140001051', 'Alice', 'Paris-PT'],
        ['add', 'SEP00AA00000002', '+33140001051', 'Bruno', 'Paris-PT'],
        [null, 'SEPNOSUCH0001', '+33140001005', 'Ghost', null],
      ],
    },
  ]);
}

/** Every issue a full validation of the rows as stored finds, computed without writing anything. */
async function fullIssues(info: WorkbookInfo): Promise<(PlainIssue | string)[][]> {
  const { store } = t.service;
  const record = store.workbooks.get(info.id);
  if (!record) throw new Error('workbook gone');
  const principal = principalOfUser(store, record.owner_pkid);
  if (!principal) throw new Error('owner gone');
  const caller = { principal, callerPath: store.nodes.get(principal.hierarchyPkid)?.path ?? '' };
  const node = store.nodes.get(record.hierarchy_pkid);
  if (!node) throw new Error('node gone');
  const outcomes: RowOutcome[] = [];
  const { sheets: sheetIssues, keys: found } = await validateFull(store, record, caller, node, (chunk) => {
    // Not compared with stored outcomes (no slimSame): every row comes whole.
    for (const outcome of chunk) if (!('same' in outcome)) outcomes.push(outcome);
    return Promise.resolve();
  });
  if (!('whole' in found)) throw new Error('a validation without stored outcomes to compare with gathers every key');
  const keys = found.whole;
  // The index an edit finds its readers by is the one a full validation builds (merged whole, or kept row by row).
  const stored = store.workbooks.keySlice(record.wb, undefined, 10_000_000);
  expect(stored).toEqual([...keys.keys].map((key, at) => [key, keys.kinds[at], keys.rows[at]]));
  const sheets = new Map(store.workbooks.sheets(record.wb).map((sheet) => [sheet.sheet_no, sheet]));
  const letter = (sheetNo: number, columnId: number | null): string => {
    const columns = JSON.parse(sheets.get(sheetNo)?.columns ?? '[]') as { id: number }[];
    const place = columns.findIndex((column) => column.id === columnId);
    return place < 0 ? '' : columnLetters(place + 1);
  };
  const listed: (PlainIssue | string)[][] = [];
  for (const sheet of sheetIssues) {
    for (const issue of sheet.issues) {
      listed.push([
        [sheets.get(sheet.sheet_no)?.name ?? '', 0, letter(sheet.sheet_no, issue.column_id), issue.severity, issue.code, issue.message],
        issue.suggestion ?? '',
      ]);
    }
  }
  for (const outcome of outcomes) {
    const row = store.workbooks.row(record.wb, outcome.row_id);
    if (!row) continue;
    const sheet = sheets.get(row.sheet_no);
    const first = sheet?.directive === null ? 2 : 5;
    for (const issue of outcome.issues) {
      listed.push([
        [sheet?.name ?? '', first + row.idx, letter(row.sheet_no, issue.column_id), issue.severity, issue.code, issue.message],
        issue.suggestion ?? '',
      ]);
    }
  }
  return listed.map((entry) => [JSON.stringify(entry)]).sort() as (PlainIssue | string)[][];
}

async function storedIssues(info: WorkbookInfo): Promise<(PlainIssue | string)[][]> {
  const list = await issues(t, info.id);
  const names = new Map(info.sheets.map((sheet) => [sheet.index, sheet.name]));
  return list.issues
    .map((issue) => [
      JSON.stringify([
        [names.get(issue.sheet) ?? '', issue.row, issue.column, issue.severity, issue.code, issue.message],
        issue.suggestion ? JSON.stringify(issue.suggestion) : '',
      ]),
    ])
    .sort() as (PlainIssue | string)[][];
}

async function rowIdsOf(info: WorkbookInfo): Promise<number[][]> {
  const ids: number[][] = [];
  for (const sheet of info.sheets) ids[sheet.index] = sheet.skipped ? [] : (await rows(t, info.id, sheet.index)).rows.map((row) => row.id);
  return ids;
}

async function runSequence(bytes: Buffer, seed: number): Promise<void> {
  const random = seeded(seed);
  let { info } = await stage(t, bytes);
  expect(await storedIssues(info)).toEqual(await fullIssues(info));
  for (let step = 0; step < EDITS; step += 1) {
    const next = randomEdit(random, info, await rowIdsOf(info));
    const where = `seed ${seed}, edit ${step + 1}: ${JSON.stringify(next)}`;
    if (next === 'undo' || next === 'redo') {
      const reply = await t.call('POST', `/workstation/workbooks/${info.id}/${next}/`, { revision: info.revision });
      expect(reply.status, `${where} ${reply.text}`).toBe(200);
    } else {
      const reply = await t.call('POST', `/workstation/workbooks/${info.id}/edits/`, { revision: info.revision, edit: next });
      // A random edit may be refused (a header that names nothing after a move, say): then nothing changed.
      if (reply.status === 400) {
        const again = await settled(t, info.id);
        expect(again.revision, where).toBe(info.revision);
        continue;
      }
      expect(reply.status, `${where} ${reply.text}`).toBe(200);
    }
    info = await settled(t, info.id);
    expect(await storedIssues(info), where).toEqual(await fullIssues(info));
  }
  const file = await saved(t, info.id);
  expect(plainIssues(info, await issues(t, info.id)), `seed ${seed}: the saved file`).toEqual(await validateFileIssues(t, file));
  await t.call('DELETE', `/workstation/workbooks/${info.id}/`);
}

describe('incremental validation', () => {
  it(`equals a full validation after every edit of ${SEQUENCES} random sequences on the LineRelation sheet`, async () => {
    const bytes = fixture('line-relation-libreoffice.xlsx');
    for (let seed = 1; seed <= SEQUENCES; seed += 1) await runSequence(bytes, seed);
  }, 300_000);

  it(`equals a full validation after every edit of ${SEQUENCES} random sequences on a directive-layout workbook`, async () => {
    const bytes = await directiveBook();
    for (let seed = 1001; seed <= 1000 + SEQUENCES; seed += 1) await runSequence(bytes, seed);
  }, 300_000);
});
