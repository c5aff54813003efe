import * as ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  MappingPreviewAnswer,
  SavedMappingFile,
  SavedMappingInfo,
  WorkbookMappingAnswer,
} from '../../../main/service/contract/mapping-api';
import type { WorkbookInfo } from '../../../main/service/contract/workbook-api';
import { ACME, openTestService, PARIS, type TestService } from '../helpers';
import { rows, saved, settled, stage } from '../workbooks/workbook-helpers';
import { SURVEY_MAPPING } from './survey-mapping';

/**
 * A customer's own sheet is never refused at staging for its headers (issue "Customer sheets in
 * any shape", points 1, 4 and 5): it waits in the `mapping` state with the proposal; confirmed,
 * it becomes an ordinary staged workbook in the model's columns (local numbers made E.164 with
 * the site's country, sites made nodes), the unmapped columns kept on `#source`; the mapping can
 * be confirmed again, is saved by name at the customer's node and is proposed first for the
 * customer's next file with the same headers in another order. A mapping that names what the
 * file does not have is refused whole.
 */
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

async function sheetBytes(name: string, header: string[], body: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(name);
  sheet.addRow(header);
  for (const row of body) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const SURVEY_HEADER = ['Site', 'Numéro', 'Nom affiché', 'Commentaire'];
const survey = (first: number, count: number): (string | number)[][] =>
  Array.from({ length: count }, (_, i) => [
    'Paris',
    `01 49 99 ${String(first + i).padStart(2, '0')} 00`,
    `Poste ${first + i}`,
    `bureau ${i}`,
  ]);

const CONFIRMED = SURVEY_MAPPING;

async function mappingOf(id: string): Promise<WorkbookMappingAnswer> {
  const reply = await t.call('GET', `/workstation/workbooks/${id}/mapping/`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as WorkbookMappingAnswer;
}

async function confirm(id: string, body: unknown): Promise<WorkbookInfo> {
  const reply = await t.call('POST', `/workstation/workbooks/${id}/mapping/`, body);
  expect(reply.status, reply.text).toBe(202);
  return settled(t, id);
}

describe('a customer sheet staged', () => {
  let id = '';

  it('waits for its mapping instead of being refused, with the proposal and the reason', async () => {
    const { info } = await stage(t, await sheetBytes('Relevé', SURVEY_HEADER, survey(10, 5)), ACME);
    id = info.id;
    expect(info.state).toBe('mapping');
    expect(info.problem).toMatch(/Sheet 'Relevé'/);
    expect(info.mapping).toEqual({ applied: false, remembered: null });
    const step = await mappingOf(id);
    expect(step.proposal.sheets[0].columns.map((column) => column.header)).toEqual(SURVEY_HEADER);
    expect(step.proposal.sheets[0].columns.find((column) => column.header === 'Numéro')?.kind).toBe('local-number');
    expect(step.mapping.columns.map((column) => column.header)).toEqual(SURVEY_HEADER);
    // No row to edit until the mapping is confirmed.
    const refused = await t.call('POST', `/workstation/workbooks/${id}/edits/`, {
      revision: info.revision,
      edit: { op: 'insert_rows', sheet: 0, at: 0, count: 1 },
    });
    expect([refused.status, refused.body.code]).toEqual([409, 'workbook-mapping']);
    const copy = await t.call('POST', `/workstation/workbooks/${id}/duplicate/`, {});
    expect([copy.status, copy.body.code]).toEqual([409, 'workbook-mapping']);
    const plan = await t.call('POST', `/workstation/workbooks/${id}/plan/`, { revision: info.revision });
    expect([plan.status, plan.body.code]).toEqual([409, 'workbook-mapping']);
  });

  it('refuses a mapping naming a field the model lacks or a column the file lacks, and changes nothing', async () => {
    const unknownField = await t.call('POST', `/workstation/workbooks/${id}/mapping/`, {
      mapping: { ...CONFIRMED, columns: [{ header: 'Numéro', target: 'no_such_field' }] },
    });
    expect([unknownField.status, unknownField.body.code]).toEqual([400, 'validation-failed']);
    expect(unknownField.body.message).toContain("'no_such_field'");
    const unknownColumn = await t.call('POST', `/workstation/workbooks/${id}/mapping/`, {
      mapping: { ...CONFIRMED, columns: [...CONFIRMED.columns, { header: 'Fax', target: 'description' }] },
    });
    expect([unknownColumn.status, unknownColumn.body.code]).toEqual([400, 'validation-failed']);
    expect(unknownColumn.body.message).toContain("'Fax'");
    const still = await settled(t, id);
    expect([still.state, still.counts.rows]).toEqual(['mapping', 0]);
  });

  it('previews the first rows as the mapping makes them, transforms applied, changing nothing', async () => {
    const reply = await t.call('POST', `/workstation/workbooks/${id}/mapping/preview/`, { mapping: CONFIRMED });
    expect(reply.status, reply.text).toBe(200);
    const preview = reply.body as MappingPreviewAnswer;
    expect(preview.names).toEqual(['Hierarchy Node', 'Directory Number', 'Alerting Name']);
    expect(preview.rows[0]).toEqual({ row: 2, values: [PARIS, '+33149991000', 'Poste 10'] });
    expect(preview.rows).toHaveLength(5);
    expect((await settled(t, id)).state).toBe('mapping');
  });

  it('becomes an ordinary staged workbook once confirmed: E.164 numbers at the site, the unmapped column kept', async () => {
    const info = await confirm(id, { mapping: CONFIRMED, save_as: 'Acme site survey' });
    expect(info.state, info.problem ?? '').toBe('validated');
    expect(info.mapping).toEqual({ applied: true, remembered: null });
    expect(info.sheets.map((sheet) => [sheet.name, sheet.skipped])).toEqual([
      ['LineRelation', false],
      ['#source', true],
    ]);
    const page = await rows(t, id);
    const cells = page.rows.map((row) => Object.values(row.cells));
    expect(cells[0]).toEqual([PARIS, '+33149991000', 'Poste 10']);
    expect(page.rows.map((row) => row.row)).toEqual([2, 3, 4, 5, 6]);
    // A mapping that does not fit the file, confirmed on staged rows, is refused and leaves them be.
    const misfit = await t.call('POST', `/workstation/workbooks/${id}/mapping/`, {
      mapping: { ...CONFIRMED, joins: [{ target: 'description', headers: ['Prénom', 'Nom'], separator: ' ' }] },
    });
    expect([misfit.status, misfit.body.code]).toEqual([400, 'validation-failed']);
    expect((await settled(t, id)).state).toBe('validated');
    expect((await rows(t, id)).rows).toHaveLength(5);
    // Confirmed again, the rows are made anew from the customer's file.
    const again = await confirm(id, {
      mapping: {
        ...CONFIRMED,
        columns: CONFIRMED.columns.map((column) => (column.header === 'Nom affiché' ? { ...column, target: null } : column)),
      },
    });
    expect(again.state).toBe('validated');
    expect((await rows(t, id)).rows[0].cells).not.toHaveProperty('3');
    expect(Object.values((await rows(t, id)).rows[0].cells)).toEqual([PARIS, '+33149991000']);
  });

  it("proposes the saved mapping first for the customer's next file, its columns in another order", async () => {
    const list = await t.call('GET', '/workstation/mappings/');
    const saved = (list.body as { mappings: SavedMappingInfo[] }).mappings.find((entry) => entry.name === 'Acme site survey');
    expect(saved).toMatchObject({ hierarchy: ACME, model: 'relation/LineRelation', headers: SURVEY_HEADER });
    const reordered = [SURVEY_HEADER[2], SURVEY_HEADER[0], SURVEY_HEADER[3], SURVEY_HEADER[1]];
    const body = survey(20, 3).map((row) => [row[2], row[0], row[3], row[1]]);
    const { info } = await stage(t, await sheetBytes('Relevé 2', reordered, body), PARIS);
    expect(info.state).toBe('mapping');
    const step = await mappingOf(info.id);
    expect(step.remembered?.name).toBe('Acme site survey');
    expect(step.unmapped_required).toEqual([]);
    // Confirmed as proposed, with no change by the user.
    const done = await confirm(info.id, { mapping: step.mapping });
    expect(done.state, done.problem ?? '').toBe('validated');
    // Its columns in the file's order: the node first, then the name, then the number.
    expect(Object.values((await rows(t, info.id)).rows[0].cells)).toEqual([PARIS, 'Poste 20', '+33149992000']);
    expect(done.mapping).toEqual({ applied: true, remembered: 'Acme site survey' });
  });

  it('saves as a workbook in our layout that stages again with no mapping step and the same issues', async () => {
    const { info } = await stage(
      t,
      await sheetBytes('Relevé 3', SURVEY_HEADER, [...survey(30, 3), ['Paris', 'pas un numéro', 'Poste X', '']]),
      ACME,
    );
    const mappedInfo = await confirm(info.id, { mapping: CONFIRMED });
    expect(mappedInfo.counts.errors).toBeGreaterThan(0);
    const again = await stage(t, await saved(t, info.id), ACME);
    expect(again.info.state).toBe('draft');
    expect(again.info.mapping).toBeNull();
    const plain = (list: WorkbookInfo) => [list.counts.rows, list.counts.errors, list.counts.warnings];
    expect(plain(again.info)).toEqual(plain(mappedInfo));
  });

  it("maps every sheet of the mapping's shape (one per site), and keeps a sheet of another shape unloaded", async () => {
    const book = new ExcelJS.Workbook();
    for (const [name, first] of [
      ['Bâtiment A', 40],
      ['Bâtiment B', 50],
    ] as const) {
      const sheet = book.addWorksheet(name);
      sheet.addRow(SURVEY_HEADER);
      for (const row of survey(first, 2)) sheet.addRow(row);
    }
    book.addWorksheet('Notes').addRow(['Remarque', 'Auteur']);
    book.getWorksheet('Notes')?.addRow(['Appeler le site avant', 'JD']);
    const { info } = await stage(t, Buffer.from(await book.xlsx.writeBuffer()), ACME);
    expect(info.state).toBe('mapping');
    const done = await confirm(info.id, { mapping: CONFIRMED });
    expect(done.state, done.problem ?? '').toBe('validated');
    expect(done.sheets.map((sheet) => [sheet.name, sheet.skipped])).toEqual([
      ['LineRelation', false],
      ['#source', true],
      ['LineRelation (2)', false],
      ['#source (2)', true],
      ['#Notes', true],
    ]);
    expect(done.counts.rows).toBe(4);
    expect(Object.values((await rows(t, info.id, 2)).rows[1].cells)).toEqual([PARIS, '+33149995100', 'Poste 51']);
  });

  it('exports a saved mapping and imports it back under another name', async () => {
    const list = (await t.call('GET', '/workstation/mappings/')).body as { mappings: SavedMappingInfo[] };
    const saved = list.mappings.find((entry) => entry.name === 'Acme site survey') as SavedMappingInfo;
    const exported = (await t.call('GET', `/workstation/mappings/${saved.id}/`)).body as SavedMappingFile;
    expect(exported.mapping.model).toBe('relation/LineRelation');
    const imported = await t.call('POST', '/workstation/mappings/', { ...exported, name: 'Copy', hierarchy: PARIS });
    expect(imported.status, imported.text).toBe(201);
    const bad = await t.call('POST', '/workstation/mappings/', {
      ...exported,
      name: 'Bad',
      mapping: { model: 'relation/Nope', columns: [] },
    });
    expect([bad.status, bad.body.code]).toEqual([400, 'validation-failed']);
    const removed = await t.call('DELETE', `/workstation/mappings/${(imported.body as { mapping: SavedMappingInfo }).mapping.id}/`);
    expect(removed.status).toBe(200);
  });

  it('refuses a mapping of a column headed like another, naming it, and stages nothing', async () => {
    const { info } = await stage(
      t,
      await sheetBytes('Doublons', ['Site', 'Numéro', 'Nom', 'Nom'], [['Paris', '01 49 97 00 01', 'Jean', 'Dupont']]),
      ACME,
    );
    expect(info.state).toBe('mapping');
    const twin = await t.call('POST', `/workstation/workbooks/${info.id}/mapping/`, {
      mapping: {
        model: 'relation/LineRelation',
        columns: [
          { header: 'Numéro', target: 'pattern' },
          { header: 'Nom', target: 'alertingName' },
        ],
      },
    });
    expect([twin.status, twin.body.code]).toEqual([400, 'duplicate-column']);
    expect(twin.body.message).toContain("two columns headed 'Nom'");
    // Both left out, the sheet maps: nothing of theirs is loaded, both are kept on #source.
    const done = await confirm(info.id, {
      mapping: {
        model: 'relation/LineRelation',
        columns: [
          { header: 'Site', target: '#Hierarchy Node', transforms: [{ kind: 'node' }] },
          { header: 'Numéro', target: 'pattern', transforms: [{ kind: 'e164' }] },
          { header: 'Nom', target: null },
        ],
      },
    });
    expect(done.state, done.problem ?? '').toBe('validated');
    expect(done.sheets.map((sheet) => sheet.name)).toEqual(['LineRelation', '#source']);
  });

  it('keeps the mapping step small for 32,767-character cells and a choice column of 5,000 distinct values', async () => {
    const long = 'x'.repeat(32_767);
    // The first rows' notes fill a cell whole (as a pasted document would); the usage words are all different.
    const body = Array.from({ length: 5_000 }, (_, i) => [
      'Paris',
      `01 49 96 ${String(i).padStart(4, '0')}`,
      `Usage ${i}`,
      i < 20 ? `${long.slice(0, 32_760)}${i}` : '',
    ]);
    const { info } = await stage(t, await sheetBytes('Grand', ['Site', 'Numéro', 'Usage', 'Notes'], body), ACME);
    expect(info.state).toBe('mapping');
    const reply = await t.call('GET', `/workstation/workbooks/${info.id}/mapping/`);
    expect(reply.status).toBe(200);
    // A sample, not the sheet: well under a megabyte whatever the cells hold.
    expect(reply.text.length).toBeLessThan(1_000_000);
    const step = reply.body as WorkbookMappingAnswer;
    const notes = step.proposal.sheets[0].columns.find((column) => column.header === 'Notes');
    expect(notes?.samples.every((sample) => sample.length <= 81)).toBe(true);
    const usage = step.proposal.sheets[0].columns.find((column) => column.header === 'Usage');
    expect(usage?.target).toBe('usage');
    expect((usage?.values ?? []).length).toBeLessThanOrEqual(200);
  });

  it('refuses a sheet with no header row with a clear error, staging nothing', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Numbers');
    sheet.getCell('A3').value = '0149999999';
    const { info } = await stage(t, Buffer.from(await book.xlsx.writeBuffer()), ACME);
    expect(info.state).toBe('failed');
    expect(info.problem).toMatch(/row 1 is empty/);
    expect(info.counts.rows).toBe(0);
  });
});
