import * as ExcelJS from 'exceljs';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MappingFileJson, MappingPreviewAnswer, WorkbookMappingAnswer } from '../../../main/service/contract/mapping-api';
import type { WorkbookInfo } from '../../../main/service/contract/workbook-api';
import { ACME, LONDON, openTestService, PARIS, type TestService } from '../helpers';
import { rows, settled, stage } from '../workbooks/workbook-helpers';

/**
 * The shapes of customer sheets that need more than a column per field (issue "Customer sheets in
 * any shape", points 1 and 3): a file with one sheet per site and no site column (each sheet's
 * name becomes its rows' node, and its local numbers take that site's country), a "Name" column
 * of full names cut into first and last names, "LAST, FIRST" names, and case, constants and an
 * explicit country code, each previewed before it is confirmed.
 */
const temp = mkdtempSync(join(tmpdir(), 'mapping-sheets-'));
const dataDir = join(temp, 'data');
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true, dataDir });
});
afterAll(() => {
  t.close();
  rmSync(temp, { recursive: true, force: true });
});

const HEADER = ['Name', 'User ID', 'Extension', 'Phone MAC'];

/** A site survey with one sheet per site (Paris dials 01..., London 020...), and a notes sheet. */
async function perSiteBook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const paris = book.addWorksheet('Paris');
  paris.addRow(HEADER);
  paris.addRow(['Jean Dupont', 'jdupont', '01 40 00 31 01', '00:1B:54:AA:31:01']);
  paris.addRow(['Marie-Claire de la Tour', 'mdelatour', '01 40 00 31 02', '00:1B:54:AA:31:02']);
  const london = book.addWorksheet('London');
  london.addRow(HEADER);
  london.addRow(['John Smith', 'jsmith', '020 7940 3101', '00:1B:54:AA:31:03']);
  book.addWorksheet('Notes').addRow(['Call the site first']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function mappingStep(id: string): Promise<WorkbookMappingAnswer> {
  const reply = await t.call('GET', `/workstation/workbooks/${id}/mapping/`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as WorkbookMappingAnswer;
}

async function confirm(id: string, mapping: MappingFileJson): Promise<WorkbookInfo> {
  const reply = await t.call('POST', `/workstation/workbooks/${id}/mapping/`, { mapping });
  expect(reply.status, reply.text).toBe(202);
  return settled(t, id);
}

describe('a file with one sheet per site and full names', () => {
  it("proposes each sheet's name as its rows' site and the full names cut in two, and stages them so with no change", async () => {
    const { info } = await stage(t, await perSiteBook(), ACME);
    expect(info.state).toBe('mapping');
    const step = await mappingStep(info.id);
    const [sheet] = step.proposal.sheets;
    expect(sheet.model).toBe('relation/Bundle');
    expect(sheet.splits?.[0]).toMatchObject({ header: 'Name', separator: ' ', targets: ['firstname', 'lastname'] });
    expect(sheet.splits?.[0].reason).toContain('full names');
    expect(step.mapping.sheet_name).toEqual({ target: '#Hierarchy Node', transforms: [{ kind: 'node' }] });
    // The sheets give the node: the chosen node is no constant of every row.
    expect(step.mapping.constants?.['#Hierarchy Node']).toBeUndefined();
    expect(step.unmapped_required).toEqual([]);

    const done = await confirm(info.id, step.mapping);
    expect(done.state, done.problem ?? '').not.toBe('failed');
    expect(done.sheets.map((entry) => [entry.name, entry.skipped])).toEqual([
      ['Bundle', false],
      ['Bundle (2)', false],
      ['#Notes', true],
    ]);
    const parisRows = (await rows(t, info.id, 0)).rows.map((row) => Object.values(row.cells));
    const londonRows = (await rows(t, info.id, 1)).rows.map((row) => Object.values(row.cells));
    expect(parisRows).toHaveLength(2);
    // Node first; then the columns in the file's order; the split's parts after them.
    expect(parisRows[0]).toEqual([PARIS, 'Jean Dupont', 'jdupont', '+33140003101', 'SEP001B54AA3101', 'Jean', 'Dupont']);
    expect(parisRows[1]).toEqual(expect.arrayContaining(['Marie-Claire', 'de la Tour']));
    // London's local number takes London's country, from its own sheet's name.
    expect(londonRows[0]).toEqual([LONDON, 'John Smith', 'jsmith', '+442079403101', 'SEP001B54AA3103', 'John', 'Smith']);
  });

  it('proposes no site from sheets named otherwise (Sheet1, Sheet2): the chosen node is every row’s', async () => {
    const book = new ExcelJS.Workbook();
    for (const name of ['Sheet1', 'Sheet2']) {
      const sheet = book.addWorksheet(name);
      sheet.addRow(HEADER);
      sheet.addRow(['Ann Lee', `alee${name}`, '01 40 00 31 09', '00:1B:54:AA:31:09']);
    }
    const { info } = await stage(t, Buffer.from(await book.xlsx.writeBuffer()), PARIS);
    const step = await mappingStep(info.id);
    expect(step.mapping.sheet_name).toBeUndefined();
    expect(step.mapping.constants).toEqual({ '#Hierarchy Node': PARIS });
  });

  it('previews "LAST, FIRST" names cut at the comma, title case, lower case and an explicit country code', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Staff');
    sheet.addRow(['Full name', 'Login', 'DDI', 'MAC']);
    sheet.addRow(["O'NEILL, MARY ANN", 'MONEILL', '020 7946 0001', '001B54AA3201']);
    sheet.addRow(['DUPONT, JEAN', 'JDUPONT', '020 7946 0002', '001B54AA3202']);
    const { info } = await stage(t, Buffer.from(await book.xlsx.writeBuffer()), ACME);
    const step = await mappingStep(info.id);
    expect(step.proposal.sheets[0].splits?.[0]).toMatchObject({ header: 'Full name', separator: ',', targets: ['lastname', 'firstname'] });
    const mapping: MappingFileJson = {
      model: 'relation/Bundle',
      columns: [
        { header: 'Full name', target: 'alertingName', transforms: [{ kind: 'case', to: 'title' }] },
        { header: 'Login', target: 'userid', transforms: [{ kind: 'case', to: 'lower' }] },
        { header: 'DDI', target: 'pattern', transforms: [{ kind: 'e164', country_code: '44' }] },
        { header: 'MAC', target: 'device_name', transforms: [{ kind: 'device-from-mac' }] },
      ],
      constants: { '#Hierarchy Node': LONDON },
      splits: [{ header: 'Full name', separator: ',', targets: ['lastname', 'firstname'] }],
    };
    const reply = await t.call('POST', `/workstation/workbooks/${info.id}/mapping/preview/`, { mapping });
    expect(reply.status, reply.text).toBe(200);
    const preview = reply.body as MappingPreviewAnswer;
    const first = Object.fromEntries(preview.names.map((name, at) => [name, preview.rows[0].values[at]]));
    expect(first).toEqual({
      'Hierarchy Node': LONDON,
      'Alerting Name': "O'Neill, Mary Ann",
      'User ID': 'moneill',
      'Directory Number': '+442079460001',
      'Device Name': 'SEP001B54AA3201',
      // The column's case shapes its parts too.
      'Last Name': "O'Neill",
      'First Name': 'Mary Ann',
    });
  });

  it('refuses a split, a transform or a separator that makes no sense, naming it, and stages nothing', async () => {
    const { info } = await stage(t, await perSiteBook(), ACME);
    const base = (await mappingStep(info.id)).mapping;
    const refusals: [Partial<MappingFileJson> | Record<string, unknown>, RegExp][] = [
      [{ splits: [{ header: 'Name', separator: ' ', targets: ['firstname'] }] }, /2 to 10 'targets'/],
      [{ splits: [{ header: 'Name', separator: '', targets: ['firstname', 'lastname'] }] }, /'separator' of 1 to 10/],
      [{ splits: [{ header: 'Name', separator: ' ', targets: ['userid', 'lastname'] }] }, /fills 'userid' twice/],
      [
        { columns: [{ header: 'Name', target: 'alertingName', transforms: [{ kind: 'case', to: 'camel' }] }] },
        /none of upper, lower, title/,
      ],
      [{ columns: [{ header: 'Extension', target: 'pattern', transforms: [{ kind: 'e164', country_code: 'FR' }] }] }, /not 1 to 3 digits/],
      [{ joins: [{ target: 'alertingName', headers: ['Name'], separator: ' - - - - - ' }] }, /'separator' of 0 to 10/],
      [{ sheet_name: { target: 'no_field' } }, /'no_field', which is no field/],
      [{ constants: { '#Hierarchy Node': 42 } }, /must be text/],
    ];
    for (const [change, message] of refusals) {
      const reply = await t.call('POST', `/workstation/workbooks/${info.id}/mapping/`, {
        mapping: { ...base, sheet_name: undefined, ...change },
      });
      expect([reply.status, reply.body.code], JSON.stringify(change)).toEqual([400, 'validation-failed']);
      expect(reply.body.message).toMatch(message);
    }
    expect((await settled(t, info.id)).state).toBe('mapping');
  });

  it('writes every sheet of the shape from the command line (map --write), each at its site', async () => {
    const file = join(temp, 'per-site.xlsx');
    writeFileSync(file, await perSiteBook());
    const out = join(temp, 'per-site-mapped.xlsx');
    t.close();
    const cli = join(__dirname, '..', '..', '..', 'dist', 'main', 'cli.js');
    const run = spawnSync(process.execPath, [cli, 'map', file, '--write', out, '--hierarchy', ACME, '--data', dataDir], {
      encoding: 'utf8',
    });
    // The store is the CLI's while it runs; opened again (already seeded) for afterAll to close.
    t = await openTestService({ dataDir });
    expect(run.status, run.stderr).toBe(0);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(out) as unknown as ArrayBuffer);
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['Bundle', 'Bundle (2)', '#Notes']);
    expect(book.getWorksheet('Bundle (2)')?.getRow(2).getCell(1).value).toBe(LONDON);
    expect(book.getWorksheet('Bundle')?.getRow(2).getCell(4).value).toBe('+33140003101');
    expect(book.getWorksheet('#Notes')?.getRow(1).getCell(1).value).toBe('Call the site first');
  });
});
