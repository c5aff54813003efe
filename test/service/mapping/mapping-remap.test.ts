import * as ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MappingFileJson, WorkbookMappingAnswer } from '../../../main/service/contract/mapping-api';
import type { WorkbookEditResult, WorkbookInfo } from '../../../main/service/contract/workbook-api';
import { ACME, openTestService, PARIS, type TestService } from '../helpers';
import { rows, settled, stage } from '../workbooks/workbook-helpers';
import { SURVEY_MAPPING } from './survey-mapping';

/**
 * A mapping changed after its rows were edited (issue "Customer sheets in any shape", point 4:
 * "the mapping can be reopened and changed later, a new revision, undoable"): the rows are made
 * anew from the file, and Undo brings back the rows as they were, with the engineer's edits and
 * the mapping they were made by; Redo makes the change again. Nothing typed is lost: not by the
 * change, not by a change cut by a stop, and the rows kept for Undo go with the workbook.
 */
const temp = mkdtempSync(join(tmpdir(), 'mapping-remap-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

async function survey(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Relevé');
  sheet.addRow(['Site', 'Numéro', 'Nom affiché', 'Commentaire']);
  for (let i = 0; i < 4; i += 1) sheet.addRow(['Paris', `01 49 94 0${i} 00`, `Poste ${i}`, `bureau ${i}`]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const WITH_NAMES = SURVEY_MAPPING;
/** The change: the comment is the description, the names in upper case. */
const WITH_COMMENTS: MappingFileJson = {
  ...WITH_NAMES,
  columns: WITH_NAMES.columns.map((column) =>
    column.header === 'Commentaire'
      ? { ...column, target: 'description' }
      : column.header === 'Nom affiché'
        ? { ...column, transforms: [{ kind: 'case', to: 'upper' }] }
        : column,
  ),
};

async function confirm(t: TestService, id: string, mapping: MappingFileJson): Promise<WorkbookInfo> {
  const reply = await t.call('POST', `/workstation/workbooks/${id}/mapping/`, { mapping });
  expect(reply.status, reply.text).toBe(202);
  return settled(t, id);
}

async function step(t: TestService, id: string, way: 'undo' | 'redo'): Promise<WorkbookEditResult> {
  const info = await settled(t, id);
  const reply = await t.call('POST', `/workstation/workbooks/${id}/${way}/`, { revision: info.revision });
  expect(reply.status, reply.text).toBe(200);
  await settled(t, id);
  return reply.body as WorkbookEditResult;
}

const names = async (t: TestService, id: string): Promise<string[]> =>
  (await rows(t, id)).rows.map((row) => Object.values(row.cells).map(String).join(' | '));

const shelves = (t: TestService): number =>
  (t.service.store.db.prepare(`SELECT count(*) AS n FROM workbooks WHERE id LIKE 'shelf:%'`).get() as { n: number }).n;

describe('a mapping changed after its rows were edited', () => {
  it('is a revision: Undo brings back the edited rows and their mapping, Redo the change, and nothing else is lost', async () => {
    const t = await openTestService({ demo: true });
    try {
      const { info } = await stage(t, await survey(), ACME);
      const first = await confirm(t, info.id, WITH_NAMES);
      expect(first.state, first.problem ?? '').toBe('validated');
      // The engineer's edit: row 2's name.
      const page = await rows(t, info.id);
      const nameColumn = 3;
      const edited = await t.call('POST', `/workstation/workbooks/${info.id}/edits/`, {
        revision: first.revision,
        edit: { op: 'set', sheet: 0, cells: [{ row_id: page.rows[0].id, column_id: nameColumn, value: 'Accueil' }] },
      });
      expect(edited.status, edited.text).toBe(200);
      const before = await names(t, info.id);
      expect(before[0]).toBe(`${PARIS} | +33149940000 | Accueil`);

      const changed = await confirm(t, info.id, WITH_COMMENTS);
      expect(changed.state, changed.problem ?? '').toBe('validated');
      expect(changed.can_undo).toBe(true);
      expect((await names(t, info.id))[0]).toBe(`${PARIS} | +33149940000 | POSTE 0 | bureau 0`);
      // The change is listed once, the rows kept for Undo are not.
      const listed = (await t.call('GET', '/workstation/workbooks/')).body as { workbooks: WorkbookInfo[] };
      expect(listed.workbooks.filter((entry) => entry.id === info.id)).toHaveLength(1);
      expect(listed.workbooks.some((entry) => entry.id.startsWith('shelf:'))).toBe(false);

      const undone = await step(t, info.id, 'undo');
      expect(undone.can_redo).toBe(true);
      expect(await names(t, info.id)).toEqual(before);
      const mappingNow = (await t.call('GET', `/workstation/workbooks/${info.id}/mapping/`)).body as WorkbookMappingAnswer;
      expect(mappingNow.mapping).toEqual(WITH_NAMES);
      // Further back: the edit itself is undone, then redone.
      await step(t, info.id, 'undo');
      expect((await names(t, info.id))[0]).toBe(`${PARIS} | +33149940000 | Poste 0`);
      await step(t, info.id, 'redo');
      expect(await names(t, info.id)).toEqual(before);
      const redone = await step(t, info.id, 'redo');
      expect(redone.can_redo).toBe(false);
      expect((await names(t, info.id))[0]).toBe(`${PARIS} | +33149940000 | POSTE 0 | bureau 0`);
      expect(((await t.call('GET', `/workstation/workbooks/${info.id}/mapping/`)).body as WorkbookMappingAnswer).mapping).toEqual(
        WITH_COMMENTS,
      );

      // Undone, then a new edit: the change can no longer be redone, and its rows are not kept.
      await step(t, info.id, 'undo');
      expect(shelves(t)).toBe(1);
      const now = await settled(t, info.id);
      const again = await t.call('POST', `/workstation/workbooks/${info.id}/edits/`, {
        revision: now.revision,
        edit: { op: 'set', sheet: 0, cells: [{ row_id: page.rows[1].id, column_id: nameColumn, value: 'Standard' }] },
      });
      expect(again.status, again.text).toBe(200);
      expect(shelves(t)).toBe(0);
      expect((await settled(t, info.id)).can_redo).toBe(false);

      // Changed twice more and deleted: the rows kept for Undo go with it.
      await confirm(t, info.id, WITH_COMMENTS);
      await confirm(t, info.id, WITH_NAMES);
      expect(shelves(t)).toBe(2);
      expect((await t.call('DELETE', `/workstation/workbooks/${info.id}/`)).status).toBe(200);
      expect(shelves(t)).toBe(0);
    } finally {
      t.close();
    }
  });

  it('keeps the last three changes to undo; an older one says its rows are no longer kept', async () => {
    const t = await openTestService({ demo: true });
    try {
      const { info } = await stage(t, await survey(), ACME);
      await confirm(t, info.id, WITH_NAMES);
      for (const mapping of [WITH_COMMENTS, WITH_NAMES, WITH_COMMENTS, WITH_NAMES]) await confirm(t, info.id, mapping);
      expect(shelves(t)).toBe(3);
      for (let i = 0; i < 3; i += 1) await step(t, info.id, 'undo');
      const last = await settled(t, info.id);
      const refused = await t.call('POST', `/workstation/workbooks/${info.id}/undo/`, { revision: last.revision });
      expect([refused.status, refused.body.code]).toEqual([409, 'remap-gone']);
      expect(refused.body.message).toContain('no longer kept');
    } finally {
      t.close();
    }
  });

  it('gives the rows as they were back when a change of mapping was cut by a stop', async () => {
    const dataDir = join(temp, 'stopped');
    let t = await openTestService({ demo: true, dataDir });
    const { info } = await stage(t, await survey(), ACME);
    await confirm(t, info.id, WITH_NAMES);
    const before = await names(t, info.id);
    await confirm(t, info.id, WITH_COMMENTS);
    // What a stop while the file was staged anew leaves: the new rows' record still staging.
    t.service.store.db.prepare(`UPDATE workbooks SET state = 'staging' WHERE id = ?`).run(info.id);
    t.close();
    t = await openTestService({ dataDir });
    try {
      const back = await settled(t, info.id);
      expect(back.state).toBe('validated');
      expect(back.problem).toContain('the rows are as they were');
      expect(await names(t, info.id)).toEqual(before);
      expect(shelves(t)).toBe(0);
    } finally {
      t.close();
    }
  });
});
