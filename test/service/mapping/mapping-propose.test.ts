import * as ExcelJS from 'exceljs';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MappingFile } from '../../../main/service/mapping/mapping-file';
import { proposeWorkbook } from '../../../main/service/mapping/propose-workbook';

/**
 * Customer sheets in the shapes field engineers get them (issue "Customer sheets in any shape"):
 * an HR export, a French site survey, a German and a Spanish list, and our own template read as
 * a customer's. The proposal must place at least 9 columns in 10 as an engineer would, with no
 * change by the user, and say the model and why.
 */
const temp = mkdtempSync(join(tmpdir(), 'mapping-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

let count = 0;
async function sheetFile(name: string, header: string[], rows: (string | number)[][]): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(name);
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  const path = join(temp, `customer-${(count += 1)}.xlsx`);
  writeFileSync(path, Buffer.from(await book.xlsx.writeBuffer()));
  return path;
}

const mac = (i: number): string => `00:1B:54:AA:${String(10 + i).padStart(2, '0')}:0${i % 10}`;

/** Placed as an engineer would: the share of columns whose proposed target is the expected one. */
function accuracy(columns: { header: string; target: string | null }[], expected: Record<string, string | null>): number {
  const right = columns.filter((column) => column.target === expected[column.header]).length;
  return right / columns.length;
}

describe('proposals for customer sheets', () => {
  it('maps an HR export (first and last names, extension, DDI, MAC, site) to phones with lines and users', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => [
      `First${i}`,
      `Last${i}`,
      String(1050 + i),
      `+3314000${1050 + i}`,
      mac(i),
      'Paris',
      `first${i}.last${i}@acme.example`,
      `flast${i}`,
      'Finance',
      'Cisco 8845',
    ]);
    const file = await sheetFile(
      'Employees',
      ['First name', 'Last name', 'Extension', 'DDI', 'Phone MAC', 'Site', 'Email', 'User ID', 'Department', 'Phone model'],
      rows,
    );
    const [sheet] = (await proposeWorkbook(file, 'hr.xlsx')).sheets;
    expect(sheet.model).toBe('relation/Bundle');
    const expected = {
      'First name': 'firstname',
      'Last name': 'lastname',
      Extension: null,
      DDI: 'pattern',
      'Phone MAC': 'device_name',
      Site: '#Hierarchy Node',
      Email: null,
      'User ID': 'userid',
      Department: null,
      'Phone model': 'product',
    };
    expect(accuracy(sheet.columns, expected), JSON.stringify(sheet.columns, null, 1)).toBeGreaterThanOrEqual(0.9);
    expect(sheet.columns.find((column) => column.header === 'DDI')?.reason).toContain('E.164');
    expect(sheet.unmappedRequired).toEqual([]);
  });

  it('maps a French site survey', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => [
      `Prénom${i}`,
      `Nom${i}`,
      `01 40 00 10 ${String(50 + i)}`,
      `SEP00AA000000${String(10 + i)}`,
      'Paris',
      `p${i}`,
      'Accueil',
    ]);
    const file = await sheetFile('Relevé', ['Prénom', 'Nom', 'Numéro', 'Téléphone', 'Site', 'Identifiant', 'Remarques'], rows);
    const [sheet] = (await proposeWorkbook(file, 'releve.xlsx')).sheets;
    expect(sheet.model).toBe('relation/Bundle');
    const expected = {
      Prénom: 'firstname',
      Nom: 'lastname',
      Numéro: 'pattern',
      Téléphone: 'device_name',
      Site: '#Hierarchy Node',
      Identifiant: 'userid',
      Remarques: null,
    };
    expect(accuracy(sheet.columns, expected), JSON.stringify(sheet.columns, null, 1)).toBeGreaterThanOrEqual(0.9);
    expect(sheet.columns.find((column) => column.header === 'Numéro')?.reason).toMatch(/French|local phone numbers/);
  });

  it('maps German and Spanish lists of lines by their words and their values', async () => {
    const german = await sheetFile(
      'Liste',
      ['Durchwahl', 'Anzeigename', 'Gerät', 'Standort', 'Beschreibung'],
      Array.from({ length: 10 }, (_, i) => [
        `+4930123${4500 + i}`,
        `Name ${i}`,
        `SEP00CC000000${String(10 + i)}`,
        'sys.hcs.Telco.Acme.Berlin',
        'Empfang',
      ]),
    );
    const [de] = (await proposeWorkbook(german, 'de.xlsx', 'relation/LineRelation')).sheets;
    expect(de.modelReason).toBe('the model you chose');
    expect(
      accuracy(de.columns, {
        Durchwahl: 'pattern',
        Anzeigename: 'alertingName',
        Gerät: 'summary_device',
        Standort: '#Hierarchy Node',
        Beschreibung: 'description',
      }),
    ).toBe(1);
    const spanish = await sheetFile(
      'Lista',
      ['Extensión', 'Nombre mostrado', 'Dispositivo', 'Sede'],
      Array.from({ length: 10 }, (_, i) => [`+3491555${1000 + i}`, `Nombre ${i}`, `SEP00DD000000${String(10 + i)}`, 'Madrid']),
    );
    const [es] = (await proposeWorkbook(spanish, 'es.xlsx', 'relation/LineRelation')).sheets;
    expect(
      accuracy(es.columns, {
        Extensión: 'pattern',
        'Nombre mostrado': 'alertingName',
        Dispositivo: 'summary_device',
        Sede: '#Hierarchy Node',
      }),
    ).toBe(1);
  });

  it('places a column whose header says nothing by its values, and takes typos', async () => {
    const file = await sheetFile(
      'Data',
      ['Col A', 'Extention', 'Mail adress'],
      Array.from({ length: 10 }, (_, i) => [`SEP00EE000000${String(10 + i)}`, `+3314000${2000 + i}`, `u${i}@acme.example`]),
    );
    const [sheet] = (await proposeWorkbook(file, 'data.xlsx', 'relation/Subscriber')).sheets;
    const byHeader = Object.fromEntries(sheet.columns.map((column) => [column.header, column]));
    expect(byHeader['Col A'].target).toBe('device');
    expect(byHeader['Col A'].reason).toContain('phone names');
    expect(byHeader['Mail adress'].target).toBe('mailid');
    expect(byHeader['Mail adress'].reason).toContain('like');
  });

  it("takes the model from the sheet's name when it names one", async () => {
    const file = await sheetFile('LineRelation', ['Directory Number', 'Alerting Name'], [['+33140001099', 'Someone']]);
    const [sheet] = (await proposeWorkbook(file, 'lines.xlsx')).sheets;
    expect(sheet.model).toBe('relation/LineRelation');
    expect(sheet.modelReason).toContain("sheet's name");
    expect(sheet.columns.map((column) => [column.target, column.reason])).toEqual([
      ['pattern', "the field's title (Directory Number); its values look like E.164 numbers"],
      ['alertingName', "the field's title (Alerting Name)"],
    ]);
  });
});

describe('value mapping', () => {
  it("maps the customer's words for choices and yes/no onto valid values, and says which it cannot", async () => {
    const file = await sheetFile(
      'Lines',
      ['Directory Number', 'Auto Answer', 'Pattern Precedence', 'Reject Anonymous Calls'],
      [
        ['+33140001101', 'Off', 'Exec', 'Oui'],
        ['+33140001102', 'Headset', 'Routine', 'Non'],
        ['+33140001103', 'Speaker', 'Flsh', 'x'],
        ['+33140001104', 'Off', 'Whatever', 'peut-être'],
      ],
    );
    const [sheet] = (await proposeWorkbook(file, 'lines.xlsx', 'relation/LineRelation')).sheets;
    const valuesOf = (header: string) =>
      Object.fromEntries(
        (sheet.columns.find((column) => column.header === header)?.values ?? []).map((value) => [value.value, [value.to, value.count]]),
      );
    expect(valuesOf('Auto Answer')).toEqual({
      Off: ['Auto Answer Off', 2],
      Headset: ['Auto Answer with Headset', 1],
      Speaker: ['Auto Answer with Speakerphone', 1],
    });
    expect(valuesOf('Pattern Precedence')).toEqual({
      Exec: ['Executive Override', 1],
      Routine: ['Routine', 1],
      Flsh: ['Flash', 1],
      Whatever: [null, 1],
    });
    expect(valuesOf('Reject Anonymous Calls')).toEqual({ Oui: [true, 1], Non: [false, 1], x: [true, 1], 'peut-être': [null, 1] });
    expect(sheet.columns.find((column) => column.header === 'Directory Number')?.values).toBeUndefined();
  });
});

describe('workstation map', () => {
  it('prints the proposal and exits 0 when every required field is mapped, 2 when one is not', async () => {
    const cli = join(__dirname, '..', '..', '..', 'dist', 'main', 'cli.js');
    const good = await sheetFile('People', ['User ID', 'DDI', 'Phone MAC'], [['flast', '+33140001098', '00:1B:54:AA:10:01']]);
    const mapped = spawnSync(process.execPath, [cli, 'map', good, '--model', 'relation/Bundle'], { encoding: 'utf8' });
    expect(mapped.status, mapped.stderr).toBe(0);
    expect(mapped.stdout).toMatch(/^sheet 'People' \(headers in row 1\): relation\/Bundle, from the model you chose/);
    expect(mapped.stdout).toMatch(/DDI\s+pattern\s+\d+%/);
    expect(mapped.stdout).toContain('every required field is mapped');
    const missing = await sheetFile('People', ['Name only'], [['Someone']]);
    const refused = spawnSync(process.execPath, [cli, 'map', missing, '--model', 'relation/Bundle', '--json'], { encoding: 'utf8' });
    expect(refused.status).toBe(2);
    expect((JSON.parse(refused.stdout) as { sheets: { unmappedRequired: string[] }[] }).sheets[0].unmappedRequired).toEqual([
      'userid',
      'device_name',
      'pattern',
    ]);
    const broken = join(temp, 'broken.xlsx');
    writeFileSync(broken, 'not a workbook');
    const notRead = spawnSync(process.execPath, [cli, 'map', broken], { encoding: 'utf8' });
    expect(notRead.status).toBe(2);
    expect(notRead.stderr).toContain('is not an .xlsx workbook');
  });
});

describe('a mapped sheet, written as a bulk-load workbook', () => {
  it('validates as the template would, and saved from a staged workbook loads again with the same issues', async () => {
    const { openTestService, PARIS } = await import('../helpers');
    const { uploadAndValidate, issuesOf } = await import('../bulk-validate-helpers');
    const { stage, saved, validateFileIssues } = await import('../workbooks/workbook-helpers');
    const cli = join(__dirname, '..', '..', '..', 'dist', 'main', 'cli.js');
    const rows = Array.from({ length: 6 }, (_, i) => [
      `First${i}`,
      `Last${i}`,
      `01 40 00 10 ${60 + i}`,
      `00:1B:54:AB:10:0${i}`,
      `map.user${i}`,
      'Finance',
      'Paris',
    ]);
    const source = await sheetFile('Employees', ['First name', 'Last name', 'DDI', 'Phone MAC', 'User ID', 'Department', 'Site'], rows);
    const mappingPath = join(temp, 'employees.mapping.json');
    const saving = spawnSync(process.execPath, [cli, 'map', source, '--model', 'relation/Bundle', '--save', mappingPath], {
      encoding: 'utf8',
    });
    expect(saving.status, saving.stderr).toBe(0);
    // The engineer's corrections: the site as the node for every row, local numbers made E.164, names joined.
    const mapping = JSON.parse(readFileSync(mappingPath, 'utf8')) as MappingFile;
    mapping.columns = mapping.columns.map((column) =>
      column.header === 'Site'
        ? { ...column, target: null }
        : column.header === 'DDI'
          ? { ...column, transforms: [{ kind: 'e164', country_code: '33' }] }
          : column,
    );
    mapping.constants = { '#Hierarchy Node': PARIS };
    mapping.joins = [{ target: 'alertingName', headers: ['First name', 'Last name'], separator: ' ' }];
    writeFileSync(mappingPath, JSON.stringify(mapping));
    const written = join(temp, 'employees.bundle.xlsx');
    const writing = spawnSync(process.execPath, [cli, 'map', source, '--mapping', mappingPath, '--write', written], { encoding: 'utf8' });
    expect(writing.status, writing.stderr).toBe(0);

    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(written) as unknown as ArrayBuffer);
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['Bundle', '#source']);
    const first = book.worksheets[0].getRow(2).values as unknown[];
    expect(first).toContain('+33140001060');
    expect(first).toContain('SEP001B54AB1000');
    expect(first).toContain('First0 Last0');
    expect(book.worksheets[1].getRow(2).getCell(2).value).toBe('Finance');

    const t = await openTestService({ demo: true });
    try {
      const answer = await uploadAndValidate(t, 'employees.bundle.xlsx', readFileSync(written), PARIS);
      expect(answer.status, answer.text).toBe(200);
      const issues = issuesOf(answer.body);
      // What validation says is about the data, never the layout: every issue is on a data row.
      expect(issues.every((issue) => issue.row >= 2)).toBe(true);
      // Round trip: staged, saved, and read again through the template layout, the same issues.
      const { info } = await stage(t, readFileSync(written));
      expect(info.state).not.toBe('failed');
      const again = await saved(t, info.id);
      expect(await validateFileIssues(t, again)).toEqual(await validateFileIssues(t, readFileSync(written)));
    } finally {
      t.close();
    }
  }, 60_000);
});

describe('a mapping file', () => {
  it('is refused with what is wrong: an unknown field, an unknown model, two columns for one field', async () => {
    const { readMapping } = await import('../../../main/service/mapping/mapping-file');
    expect(() => readMapping({ model: 'relation/Bundle', columns: [{ header: 'X', target: 'colour' }] })).toThrow(
      /names 'colour', which is no field of relation\/Bundle/,
    );
    expect(() => readMapping({ model: 'relation/Nope', columns: [] })).toThrow(/names the model 'relation\/Nope', which does not exist/);
    expect(() =>
      readMapping({
        model: 'relation/Bundle',
        columns: [
          { header: 'A', target: 'userid' },
          { header: 'B', target: 'userid' },
        ],
      }),
    ).toThrow(/fills 'userid' twice \(from column \d \('[^']+'\) and from column \d/);
    expect(() => readMapping([])).toThrow(/must be a JSON object/);
  });
});

describe('places from the store', () => {
  it('makes site names the nodes below the chosen one, and local numbers E.164 with the country of their row', async () => {
    const { openTestService } = await import('../helpers');
    const dataDir = mkdtempSync(join(tmpdir(), 'mapping-store-'));
    const t = await openTestService({ demo: true, dataDir });
    t.close();
    const cli = join(__dirname, '..', '..', '..', 'dist', 'main', 'cli.js');
    const source = await sheetFile(
      'Staff',
      ['User ID', 'First name', 'Last name', 'DDI', 'Phone MAC', 'Site'],
      [
        ['p.one', 'Pat', 'One', '01 40 00 10 71', '00:1B:54:AC:10:01', 'Paris'],
        ['l.two', 'Lee', 'Two', '020 7946 1072', '00:1B:54:AC:10:02', 'london'],
        ['n.three', 'Noa', 'Three', '01 40 00 10 73', '00:1B:54:AC:10:03', 'Lyon'],
      ],
    );
    const written = join(temp, 'staff.bundle.xlsx');
    const run = spawnSync(
      process.execPath,
      [cli, 'map', source, '--model', 'relation/Bundle', '--write', written, '--hierarchy', 'sys.hcs.Telco.Acme', '--data', dataDir],
      { encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(written) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const column = (name: string): number => header.indexOf(name);
    const cells = [2, 3, 4].map((row) => [
      sheet.getRow(row).getCell(column('Hierarchy Node')).value,
      sheet.getRow(row).getCell(column('Directory Number')).value,
    ]);
    expect(cells).toEqual([
      ['sys.hcs.Telco.Acme.Paris', '+33140001071'],
      ['sys.hcs.Telco.Acme.London', '+442079461072'],
      // No node is called Lyon: the name stays, for validation to report, and its number with it.
      ['Lyon', '01 40 00 10 73'],
    ]);

    // The same sheet validated through its mapping file, as 'validate --mapping' runs it.
    const mappingPath = join(temp, 'staff.mapping.json');
    const saving = spawnSync(process.execPath, [cli, 'map', source, '--model', 'relation/Bundle', '--save', mappingPath], {
      encoding: 'utf8',
    });
    expect(saving.status, saving.stderr).toBe(0);
    const validated = spawnSync(
      process.execPath,
      [cli, 'validate', source, '--mapping', mappingPath, '--hierarchy', 'sys.hcs.Telco.Acme', '--data', dataDir, '--json'],
      { encoding: 'utf8' },
    );
    const answer = JSON.parse(validated.stdout) as { command: string; issues?: { row: number; message: string }[] };
    expect(answer.command).toBe('validate');
    // Lyon is no node: its row (the customer's row 4) is in error, saying so; exit 1 for a row in error.
    expect(validated.status, validated.stderr).toBe(1);
    expect(answer.issues?.some((issue) => issue.row === 4 && issue.message.includes('Lyon'))).toBe(true);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);
});
