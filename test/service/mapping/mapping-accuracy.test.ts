import * as ExcelJS from 'exceljs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { mappingOf } from '../../../main/service/mapping/mapping-file';
import { proposeWorkbook } from '../../../main/service/mapping/propose-workbook';

/**
 * Issue "Customer sheets in any shape", acceptance: "the proposals map at least 9 columns in 10
 * correctly with no user change", over customer files in the four shapes it names, with no model
 * given (the proposal chooses it): an HR export, a French site survey, a sheet of yes/no flags
 * and the customer's words for choices, and a file with one sheet per site. A column is right
 * when its proposed target is the one an engineer would choose (null: not loaded), and a column
 * an engineer would split is right when the proposal splits it so. The share is printed per file.
 */
const temp = mkdtempSync(join(tmpdir(), 'mapping-accuracy-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

interface Shape {
  name: string;
  sheets: { name: string; rows: (string | number)[][] }[];
  model: string;
  /** Header -> the target an engineer chooses; an array: the fields a split fills. */
  expected: Record<string, string | null | string[]>;
}

const FIRST = ['Jean', 'Marie', 'Hans', 'Ana', 'John', 'Lucía', 'Pierre', 'Grete'];
const LAST = ['Martin', 'Müller', 'García', 'Smith', 'de la Tour', "O'Neill", 'Dubois', 'Schmidt'];
const mac = (i: number): string => `00:1B:54:AC:${String(10 + i).padStart(2, '0')}:0${i % 10}`;
const many = <T>(count: number, row: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => row(i));

const SHAPES: Shape[] = [
  {
    name: 'HR export',
    model: 'relation/Bundle',
    sheets: [
      {
        name: 'Employees',
        rows: [
          ['Employee ID', 'First Name', 'Last Name', 'Work Email', 'DDI', 'Phone MAC', 'Location', 'Job Title', 'Handset'],
          ...many(25, (i) => [
            `E${1000 + i}`,
            `Anna${i}`,
            `Berg${i}`,
            `a${i}@acme.example`,
            `01 40 00 12 ${10 + i}`,
            mac(i),
            'Paris',
            'Analyst',
            'Cisco 8845',
          ]),
        ],
      },
    ],
    expected: {
      'Employee ID': 'userid',
      'First Name': 'firstname',
      'Last Name': 'lastname',
      'Work Email': null,
      DDI: 'pattern',
      'Phone MAC': 'device_name',
      Location: '#Hierarchy Node',
      'Job Title': null,
      Handset: 'product',
    },
  },
  {
    name: 'French site survey',
    model: 'relation/LineRelation',
    sheets: [
      {
        name: 'Relevé de site',
        rows: [
          ['Site', 'Numéro', 'Nom affiché', 'Poste téléphonique', 'Partition', 'Remarques'],
          ...many(20, (i) => ['Paris', `01 40 00 13 ${10 + i}`, `Accueil ${i}`, `SEP00AB000000${10 + i}`, 'PT_INTERNAL', 'RAS']),
        ],
      },
    ],
    expected: {
      Site: '#Hierarchy Node',
      Numéro: 'pattern',
      'Nom affiché': 'alertingName',
      'Poste téléphonique': 'summary_device',
      Partition: 'routePartitionName',
      Remarques: 'description',
    },
  },
  {
    name: 'flags and choice words',
    model: 'relation/LineRelation',
    sheets: [
      {
        name: 'Lignes',
        rows: [
          ['Numéro', 'Nom affiché', 'Décroché automatique', 'Priorité', 'Refus appels anonymes', 'Description'],
          ...many(12, (i) => [
            `+3314000${1400 + i}`,
            `Ligne ${i}`,
            ['Off', 'Casque', 'Haut-parleur'][i % 3],
            ['Exec', 'Routine', 'Flash'][i % 3],
            i % 2 === 0 ? 'Oui' : 'Non',
            'Bureau',
          ]),
        ],
      },
    ],
    expected: {
      Numéro: 'pattern',
      'Nom affiché': 'alertingName',
      'Décroché automatique': 'autoAnswer',
      Priorité: 'patternPrecedence',
      'Refus appels anonymes': 'rejectAnonymousCall',
      Description: 'description',
    },
  },
  {
    name: 'one sheet per site',
    model: 'relation/Bundle',
    sheets: ['Paris', 'London', 'Berlin'].map((site, s) => ({
      name: site,
      rows: [
        ['Name', 'Login', 'Extension', 'MAC address', 'Phone model'],
        ...many(8, (i) => [
          `${FIRST[i % FIRST.length]} ${LAST[(i + s) % LAST.length]}`,
          `jm${s}${i}`,
          `0${s + 1} 40 00 14 ${10 + i}`,
          mac(i + s * 10),
          '8845',
        ]),
      ],
    })),
    expected: {
      Name: 'alertingName',
      Login: 'userid',
      Extension: 'pattern',
      'MAC address': 'device_name',
      'Phone model': 'product',
      // The full names split, since no column gives the first and last names.
      '(split) Name': ['firstname', 'lastname'],
    },
  },
];

async function fileOf(shape: Shape): Promise<string> {
  const book = new ExcelJS.Workbook();
  for (const sheet of shape.sheets) {
    const added = book.addWorksheet(sheet.name);
    for (const row of sheet.rows) added.addRow(row);
  }
  const path = join(temp, `${shape.name}.xlsx`);
  writeFileSync(path, Buffer.from(await book.xlsx.writeBuffer()));
  return path;
}

it('maps at least 9 columns in 10 as an engineer would, in each shape, with no change by the user', async () => {
  const results: string[] = [];
  let right = 0;
  let all = 0;
  for (const shape of SHAPES) {
    const [sheet] = (await proposeWorkbook(await fileOf(shape), `${shape.name}.xlsx`)).sheets;
    expect(sheet.model, shape.name).toBe(shape.model);
    const mapping = mappingOf(sheet);
    const wrong: string[] = [];
    for (const [header, target] of Object.entries(shape.expected)) {
      const split = header.startsWith('(split) ');
      const got = split
        ? (mapping.splits?.find((entry) => entry.header === header.slice(8))?.targets ?? null)
        : (mapping.columns.find((column) => column.header === header)?.target ?? null);
      if (JSON.stringify(got) === JSON.stringify(target)) right += 1;
      else wrong.push(`${header}: ${JSON.stringify(got)} (expected ${JSON.stringify(target)})`);
      all += 1;
    }
    const count = Object.keys(shape.expected).length;
    const share = (count - wrong.length) / count;
    results.push(`${shape.name}: ${count - wrong.length}/${count}${wrong.length > 0 ? ` (${wrong.join('; ')})` : ''}`);
    expect(share, `${shape.name}: ${wrong.join('; ')}`).toBeGreaterThanOrEqual(0.9);
  }
  console.log(`mapping proposals, right with no user change: ${right}/${all}\n  ${results.join('\n  ')}`);
  expect(right / all).toBeGreaterThanOrEqual(0.9);
});

it("maps the customer's own words for choices and yes/no, in French, onto valid values", async () => {
  const shape = SHAPES.find((entry) => entry.name === 'flags and choice words') as Shape;
  const [sheet] = (await proposeWorkbook(await fileOf(shape), 'flags.xlsx')).sheets;
  const mapping = mappingOf(sheet);
  const valuesOf = (header: string) => mapping.columns.find((column) => column.header === header)?.values;
  expect(valuesOf('Décroché automatique')).toEqual({
    Off: 'Auto Answer Off',
    Casque: 'Auto Answer with Headset',
    'Haut-parleur': 'Auto Answer with Speakerphone',
  });
  expect(valuesOf('Priorité')).toEqual({ Exec: 'Executive Override' });
  expect(valuesOf('Refus appels anonymes')).toEqual({ Oui: true, Non: false });
});
