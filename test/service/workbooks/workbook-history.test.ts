import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WorkbookInfo } from '../../../main/service/contract/workbook-api';
import { fixture } from '../bulk-validate-helpers';
import { openTestService, type TestService } from '../helpers';
import { edit, rows, settled, stage } from './workbook-helpers';
import { randomEdit, seeded } from './workbook-random-edits';

/**
 * Undo and redo through the whole history: after random edit sequences, undoing every edit gives
 * back the staged workbook cell by cell, and redoing every edit gives back the end, with a
 * restart of the service (the same data folder) halfway through each.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'workbook-history-'));
let t: TestService;
afterAll(() => {
  t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every sheet's columns, directive and cells, as a client reads them. */
async function grid(id: string): Promise<string> {
  const info = await settled(t, id);
  const sheets = [];
  for (const sheet of info.sheets) {
    const page = sheet.skipped ? [] : (await rows(t, id, sheet.index)).rows.map((row) => [row.id, row.cells]);
    sheets.push({ name: sheet.name, directive: sheet.directive, columns: sheet.columns.map((c) => [c.id, c.name, c.title]), page });
  }
  return JSON.stringify(sheets);
}

async function restart(): Promise<void> {
  t.close();
  t = await openTestService({ dataDir });
}

async function step(id: string, info: WorkbookInfo, way: 'undo' | 'redo'): Promise<WorkbookInfo> {
  const reply = await t.call('POST', `/workstation/workbooks/${id}/${way}/`, { revision: info.revision });
  expect(reply.status, reply.text).toBe(200);
  return settled(t, id);
}

describe('undo and redo', () => {
  it('go back to the start and forth to the end of random sequences, cell by cell, across a restart', async () => {
    t = await openTestService({ demo: true, dataDir });
    for (let seed = 1; seed <= 20; seed += 1) {
      const random = seeded(seed * 7919);
      let { info } = await stage(t, fixture('line-relation-libreoffice.xlsx'));
      const id = info.id;
      const start = await grid(id);
      let edits = 0;
      while (edits < 15) {
        const ids = [(await rows(t, id)).rows.map((row) => row.id)];
        const next = randomEdit(random, info, ids);
        if (next === 'undo' || next === 'redo') continue;
        await edit(t, id, info.revision, next);
        info = await settled(t, id);
        edits += 1;
      }
      const end = await grid(id);
      while (info.can_undo) {
        info = await step(id, info, 'undo');
        if (info.revision % 3 === 0 && seed % 4 === 0) await restart();
      }
      expect(await grid(id), `seed ${seed}: undo all`).toBe(start);
      await restart();
      info = await settled(t, id);
      expect(info.can_undo).toBe(false);
      while (info.can_redo) info = await step(id, info, 'redo');
      expect(await grid(id), `seed ${seed}: redo all`).toBe(end);
      const history = await t.call('GET', `/workstation/workbooks/${id}/history/`);
      expect(history.body.history).toHaveLength(15);
    }
  }, 300_000);

  it('refuses an edit made on another revision than the current one, and changes nothing', async () => {
    const { info } = await stage(t, fixture('line-relation-libreoffice.xlsx'));
    const before = await grid(info.id);
    const first = (await rows(t, info.id)).rows[0];
    const column = info.sheets[0].columns[4];
    const done = await edit(t, info.id, info.revision, {
      op: 'set',
      sheet: 0,
      cells: [{ row_id: first.id, column_id: column.id, value: 'Zoe' }],
    });
    const stale = await t.call('POST', `/workstation/workbooks/${info.id}/edits/`, {
      revision: info.revision,
      edit: { op: 'set', sheet: 0, cells: [{ row_id: first.id, column_id: column.id, value: 'Yann' }] },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('revision-conflict');
    const undoStale = await t.call('POST', `/workstation/workbooks/${info.id}/undo/`, { revision: info.revision });
    expect(undoStale.status).toBe(409);
    expect((await rows(t, info.id)).rows[0].cells[column.id]).toBe('Zoe');
    await t.call('POST', `/workstation/workbooks/${info.id}/undo/`, { revision: done.revision });
    expect(await grid(info.id)).toBe(before);
  });
});
