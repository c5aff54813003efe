import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawCell } from '../../main/service/sheets/cell-value';
import { ApiError } from '../../main/service/errors';
import { columnLetters } from '../../main/service/sheets/sheet-xml-scan';
import { inspectWorkbookFile } from '../../main/service/sheets/workbook-package';
import { readXlsxBook } from '../../main/service/sheets/xlsx-book';
import { worksheetEntry } from '../../main/service/sheets/read-workbook';
import { sheetRowBatches } from '../../main/service/sheets/xlsx-row-stream';
import { MAIN, spreadsheetPackage, STRICT_MAIN, stylesWith, worksheet, type PackageSpec } from '../fixtures/fixture-packages';
import { readZip, writeZip } from '../fixtures/zip-tools';
import { fixture, issuesOf, validator } from './bulk-validate-helpers';
import { openTestService, type TestService } from './helpers';

/**
 * One small hand-made workbook per class of real-world file our first reader misread (issue
 * "Every real-world workbook read exactly as the spreadsheet program shows it"), each read as a
 * user sees it in Excel: the values below are what the cells show. The real files of each class
 * are in the corpus (sheets-corpus.test.ts).
 */
const temp = mkdtempSync(join(tmpdir(), 'sheets-classes-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let count = 0;

const shown = (raw: RawCell): string => {
  switch (raw.kind) {
    case 'text':
      return raw.text;
    case 'number':
      return `number ${raw.value}`;
    case 'boolean':
      return raw.value ? 'TRUE' : 'FALSE';
    case 'date':
      return `date ${raw.value.toISOString()}`;
    case 'error':
      return `error ${raw.text}`;
    case 'no-value':
      return 'no value';
  }
};

/** Each sheet's cells by A1 address as they show, or the refusal's status, code and message. */
async function cellsOf(bytes: Buffer): Promise<Record<string, Record<string, string>>> {
  const path = join(temp, `book-${(count += 1)}.xlsx`);
  writeFileSync(path, bytes);
  const pkg = await inspectWorkbookFile(path, 'book.xlsx');
  const book = await readXlsxBook(path, pkg, 'book.xlsx');
  const sheets: Record<string, Record<string, string>> = {};
  for (const part of pkg.sheets) {
    const cells: Record<string, string> = {};
    for await (const rows of sheetRowBatches(path, worksheetEntry(pkg, part, 'book.xlsx'), book, 'book.xlsx')) {
      for (const row of rows) for (const [column, raw] of row.cells) cells[`${columnLetters(column)}${row.number}`] = shown(raw);
    }
    sheets[part.name] = cells;
  }
  return sheets;
}

async function refusal(bytes: Buffer): Promise<string> {
  try {
    await cellsOf(bytes);
  } catch (error) {
    if (error instanceof ApiError) return `${error.httpCode} ${error.code}: ${error.message}`;
    throw error;
  }
  return 'read';
}

const oneSheet = (rows: string, extra: Partial<PackageSpec> = {}): Buffer =>
  spreadsheetPackage({ sheets: [{ name: 'Lines', xml: worksheet(rows) }], ...extra });

const sst = (items: string, ns = MAIN): string => `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${ns}">${items}</sst>`;

describe('class 1: whitespace between elements is not cell text', () => {
  it('reads an indented sheet and shared strings (as Gnumeric writes them) without the indentation', async () => {
    const rows = `
    <row r="1">
      <c r="A1" t="s">
        <v>0</v>
      </c>
      <c r="B1" t="str">
        <v>+33140001065</v>
      </c>
      <c r="C1" t="inlineStr">
        <is>
          <t>Alice</t>
        </is>
      </c>
      <c r="D1">
        <v> 42 </v>
      </c>
    </row>`;
    const strings = sst(`
      <si>
        <t xml:space="preserve">  kept spaces  </t>
      </si>`);
    expect(await cellsOf(oneSheet(rows, { strings }))).toEqual({
      Lines: { A1: '  kept spaces  ', B1: '+33140001065', C1: 'Alice', D1: 'number 42' },
    });
  });

  it('gives a clean LineRelation sheet re-saved with indented XML the same issues as the original', async () => {
    const t: TestService = await openTestService({ demo: true });
    try {
      const check = validator(t);
      const original = fixture('line-relation-libreoffice.xlsx');
      const indented = writeZip(
        readZip(original).map((part) =>
          part.name.endsWith('.xml') ? { name: part.name, data: Buffer.from(part.data.toString('utf8').replace(/></g, '>\n    <')) } : part,
        ),
      );
      const before = issuesOf(await check.validateBook(original));
      const after = issuesOf(await check.validateBook(indented));
      expect(after).toEqual(before);
    } finally {
      t.close();
    }
  });
});

describe('class 2: elements with a namespace prefix', () => {
  it('reads <x:row> and <x:c> (WPS, .NET writers) and leaves other namespaces alone', async () => {
    const xml = `<?xml version="1.0"?><x:worksheet xmlns:x="${MAIN}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"><x:sheetData><x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1" t="inlineStr"><x:is><x:t>inline</x:t></x:is></x:c><x:c r="C1"><x:v>7</x:v></x:c></x:row></x:sheetData><x:extLst><x:ext><x14:c><x14:v>9</x14:v></x14:c></x:ext></x:extLst></x:worksheet>`;
    const strings = `<x:sst xmlns:x="${MAIN}"><x:si><x:t>shared</x:t></x:si></x:sst>`;
    const bytes = spreadsheetPackage({ sheets: [{ name: 'Lines', xml }], strings });
    expect(await cellsOf(bytes)).toEqual({ Lines: { A1: 'shared', B1: 'inline', C1: 'number 7' } });
  });
});

describe('class 3: rows and cells without an r attribute', () => {
  it('places them by their order, after the row or cell before', async () => {
    const rows =
      '<row><c t="inlineStr"><is><t>a</t></is></c><c><v>1</v></c></row><row r="4"><c r="C4"><v>2</v></c><c><v>3</v></c></row><row><c><v>4</v></c></row>';
    expect(await cellsOf(oneSheet(rows))).toEqual({ Lines: { A1: 'a', B1: 'number 1', C4: 'number 2', D4: 'number 3', A5: 'number 4' } });
  });
});

describe('class 4: parts found by the relationships, Transitional or Strict', () => {
  it('reads a workbook at the package root with its sheets, strings and styles at other paths', async () => {
    const bytes = spreadsheetPackage({
      workbookPath: 'workbook.xml',
      sheets: [
        {
          name: 'Lines',
          xml: worksheet('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" s="1"><v>45000</v></c></row>'),
          path: 'sheets/lines data.xml',
        },
        { name: 'Phones', xml: worksheet('<row r="1"><c r="A1" t="s"><v>1</v></c></row>'), path: 'other/phones.xml' },
      ],
      strings: sst('<si><t>line</t></si><si><t>phone</t></si>'),
      styles: stylesWith(['yyyy-mm-dd']),
    });
    expect(await cellsOf(bytes)).toEqual({
      Lines: { A1: 'line', B1: 'date 2023-03-15T00:00:00.000Z' },
      Phones: { A1: 'phone' },
    });
  });

  it('reads a Strict OOXML workbook (purl.oclc.org namespaces)', async () => {
    const bytes = spreadsheetPackage({
      strict: true,
      sheets: [
        { name: 'Lines', xml: worksheet('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" s="1"><v>1.5</v></c></row>', STRICT_MAIN) },
      ],
      strings: sst('<si><t>strict</t></si>', STRICT_MAIN),
      styles: stylesWith(['0.00'], STRICT_MAIN),
    });
    expect(await cellsOf(bytes)).toEqual({ Lines: { A1: 'strict', B1: 'number 1.5' } });
  });

  it('finds the workbook by its content type when the package relationships are missing', async () => {
    const bytes = oneSheet('<row r="1"><c r="A1" t="inlineStr"><is><t>found</t></is></c></row>', { noPackageRels: true });
    expect(await cellsOf(bytes)).toEqual({ Lines: { A1: 'found' } });
  });
});

describe('class 5: dates', () => {
  it('counts from 1904 in a date1904 workbook (Excel for Mac before 2011)', async () => {
    const bytes = oneSheet('<row r="1"><c r="A1" s="1"><v>0</v></c><c r="B1" s="1"><v>43538</v></c></row>', {
      workbookPr: 'date1904="1"',
      styles: stylesWith([14]),
    });
    expect(await cellsOf(bytes)).toEqual({ Lines: { A1: 'date 1904-01-01T00:00:00.000Z', B1: 'date 2023-03-15T00:00:00.000Z' } });
    const withTrue = oneSheet('<row r="1"><c r="A1" s="1"><v>43538</v></c></row>', {
      workbookPr: 'date1904="true"',
      styles: stylesWith([14]),
    });
    expect(await cellsOf(withTrue)).toEqual({ Lines: { A1: 'date 2023-03-15T00:00:00.000Z' } });
  });

  it('reads ISO 8601 date cells (t="d") as the date they name', async () => {
    const bytes = oneSheet(
      '<row r="1"><c r="A1" t="d"><v>2024-02-29T13:45:00</v></c><c r="B1" t="d" s="1"><v>1999-12-31</v></c><c r="C1" t="d"><v>2024-02-30</v></c></row>',
      { styles: stylesWith([14]) },
    );
    expect(await cellsOf(bytes)).toEqual({
      Lines: { A1: 'date 2024-02-29T13:45:00.000Z', B1: 'date 1999-12-31T00:00:00.000Z', C1: 'error an impossible date' },
    });
  });

  it('reads serials before 1900-03-01 as Excel shows them (its 1900 leap-year rule)', async () => {
    const bytes = oneSheet(
      '<row r="1"><c r="A1" s="1"><v>1</v></c><c r="B1" s="1"><v>59</v></c><c r="C1" s="1"><v>61</v></c><c r="D1" s="1"><v>31</v></c></row>',
      { styles: stylesWith([14]) },
    );
    expect(await cellsOf(bytes)).toEqual({
      Lines: {
        A1: 'date 1900-01-01T00:00:00.000Z',
        B1: 'date 1900-02-28T00:00:00.000Z',
        C1: 'date 1900-03-01T00:00:00.000Z',
        D1: 'date 1900-01-31T00:00:00.000Z',
      },
    });
  });

  it("reads a formula's cached result in a date format as a date", async () => {
    const bytes = oneSheet('<row r="1"><c r="A1" s="1"><f>TODAY()</f><v>45000</v></c></row>', { styles: stylesWith([14]) });
    expect(await cellsOf(bytes)).toEqual({ Lines: { A1: 'date 2023-03-15T00:00:00.000Z' } });
  });
});

describe('class 6: cached formula results', () => {
  it('reads booleans as TRUE and FALSE, and keeps error results, so no cell or row vanishes', async () => {
    const rows =
      '<row r="1"><c r="A1" t="b"><f>1=1</f><v>1</v></c><c r="B1" t="b"><f>1=2</f><v>0</v></c></row>' +
      '<row r="2"><c r="A2" t="e"><f>1/0</f><v>#DIV/0!</v></c></row>' +
      '<row r="3"><c r="A3" t="e"><f>NA()</f><v>#N/A</v></c><c r="B3" t="e"><f>#REF!</f><v>#REF!</v></c></row>' +
      '<row r="4"><c r="A4" t="str"><f>IF(1,"","x")</f><v></v></c><c r="B4"><f>NOW()</f></c></row>';
    expect(await cellsOf(oneSheet(rows))).toEqual({
      Lines: { A1: 'TRUE', B1: 'FALSE', A2: 'error #DIV/0!', A3: 'error #N/A', B3: 'error #REF!', B4: 'no value' },
    });
  });
});

describe('class 7: text', () => {
  it('keeps CDATA, a plain text before rich runs, decodes _xHHHH_ escapes and decodes entities once', async () => {
    const strings = sst(
      '<si><t>plain </t><r><t>rich</t></r><r><rPr><b/></rPr><t> run</t></r></si><si><t>line_x000D_end _x005F_x000D_ kept</t></si><si><t><![CDATA[<b>cdata & co</b>]]></t></si>',
    );
    const rows =
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>' +
      '<row r="2"><c r="A2" t="inlineStr"><is><t>AT&amp;amp;T</t></is></c><c r="B2" t="str"><f>"x"</f><v>a &amp;lt; b</v></c><c r="C2" t="inlineStr"><is><t>tab_x0009_here</t></is></c></row>';
    expect(await cellsOf(oneSheet(rows, { strings }))).toEqual({
      Lines: {
        A1: 'plain rich run',
        B1: 'line\rend _x000D_ kept',
        C1: '<b>cdata & co</b>',
        A2: 'AT&amp;T',
        B2: 'a &lt; b',
        C2: 'tab\there',
      },
    });
  });
});

describe('class 9: refusals that say the true reason', () => {
  it('calls a part whose checksum fails damaged (400), not a zip bomb', async () => {
    const bytes = oneSheet('<row r="1"><c r="A1"><v>1</v></c></row>', { damageFirstSheet: true });
    expect(await refusal(bytes)).toMatch(
      /^400 bad-workbook: book\.xlsx is not a readable \.xlsx workbook \(its part xl\/worksheets\/sheet1\.xml is damaged: its checksum \(CRC\) does not match\)/,
    );
  });

  it('names what a ZIP that is no workbook is', async () => {
    const docx = writeZip([{ name: 'word/document.xml', data: Buffer.from('<w:document/>') }]);
    expect(await refusal(docx)).toMatch(/^415 unsupported-media-type: book\.xlsx is not an \.xlsx workbook \(it is a Word document\)/);
    const noWorkbook = writeZip(readZip(oneSheet('<row r="1"/>')).filter((part) => part.name !== 'xl/workbook.xml'));
    expect(await refusal(noWorkbook)).toMatch(/^400 bad-workbook: .*its workbook part is missing/);
  });

  it('names an .xls workbook and a file of another kind', async () => {
    const xls = Buffer.alloc(2048);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(xls);
    Buffer.from('Workbook\0', 'utf16le').copy(xls, 1024);
    expect(await refusal(xls)).toMatch(/^415 unsupported-media-type: .*\(it is an old \.xls workbook\): open it in Excel or LibreOffice/);
    const encrypted = Buffer.alloc(2048);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(encrypted);
    Buffer.from('EncryptedPackage', 'utf16le').copy(encrypted, 1024);
    expect(await refusal(encrypted)).toMatch(/^400 encrypted-workbook: book\.xlsx is encrypted \(password protected\)/);
    expect(await refusal(Buffer.from('<!DOCTYPE html><html><body>Sign in</body></html>'))).toContain('(it is a web page)');
  });
});

beforeAll(() => undefined);
