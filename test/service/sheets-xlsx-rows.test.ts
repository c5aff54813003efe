import * as ExcelJS from 'exceljs';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cellsWorkbook } from '../fixtures/fixture-cells';
import { exceljsWorkbook } from '../fixtures/fixture-exceljs';
import { DIRECTIVE_SHEETS, lineRelationSheets } from '../fixtures/fixture-specs';
import { readZip, writeZip, type ZipPart } from '../fixtures/zip-tools';
import { FIXTURES } from './bulk-validate-helpers';
import { columnLetters } from '../../main/service/sheets/sheet-xml-scan';
import { ownRows, referenceDifferences } from './sheets-differential';

/**
 * Our own .xlsx row reader (xlsx-row-stream.ts) against the reference reader (SheetJS,
 * sheets-reference-sheetjs.ts): every workbook below, the fixtures, workbooks exceljs writes and
 * sheets written by hand with every kind of cell, reads the same, cell for cell (kinds, values,
 * dates as Excel shows them). The real-world files are sheets-corpus.test.ts's.
 */
const temp = mkdtempSync(join(tmpdir(), 'sheets-xlsx-rows-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

let count = 0;
function saved(bytes: Buffer): string {
  const path = join(temp, `book-${(count += 1)}.xlsx`);
  writeFileSync(path, bytes);
  return path;
}

/** The first sheet's cells by A1 address, as a user sees them, or the fault. */
async function cellsShown(path: string): Promise<Record<string, string> | string> {
  const outcome = await ownRows(path, 'book.xlsx');
  if ('fault' in outcome) return outcome.fault;
  const cells: Record<string, string> = {};
  for (const row of outcome.sheets[0][1]) {
    for (const [column, raw] of row.cells) {
      const shown =
        raw.kind === 'date'
          ? raw.value.toISOString()
          : raw.kind === 'no-value'
            ? 'no value'
            : raw.kind === 'number'
              ? `${raw.value} (${raw.numFmt ?? 'General'})`
              : String(raw.kind === 'text' || raw.kind === 'error' ? raw.text : raw.value);
      cells[`${columnLetters(column)}${row.number}`] = `${raw.kind}: ${shown}`;
    }
  }
  return cells;
}

async function expectSameRows(path: string): Promise<void> {
  expect(await referenceDifferences(path)).toEqual([]);
}

const DATE_FORMATS = [
  'yyyy-mm-dd',
  'dd/mm/yyyy hh:mm:ss',
  'mm-dd-yy',
  'h:mm AM/PM',
  '[$-409]mmmm d, yyyy',
  '"Due "d/m',
  '[h]:mm:ss',
  'mmss.0',
  'd-mmm',
];
const NUMBER_FORMATS = ['General', '0.00%', '#,##0.00', '@', '00000', '0;[Red]-0', '0" days"', '# ?/?', '0.00E+00'];

function fillEveryKind(sheet: ExcelJS.Worksheet): void {
  sheet.addRow(['pattern', 'alertingName', 'description', 'Action']);
  sheet.addRow([
    { richText: [{ text: 'Rich ' }, { text: 'bold', font: { bold: true } }, { text: '' }] },
    { formula: '1+1', result: 2 },
    { formula: '"a"&"b"', result: 'ab' },
    { formula: 'NOW()' },
  ]);
  sheet.getCell('E3').value = { formula: 'A1*2', result: 2, shareType: 'shared', ref: 'E3:E5' } as ExcelJS.CellFormulaValue;
  sheet.getCell('E4').value = { sharedFormula: 'E3', result: 4 } as ExcelJS.CellSharedFormulaValue;
  sheet.getCell('E5').value = { sharedFormula: 'E3', result: 6 } as ExcelJS.CellSharedFormulaValue;
  sheet.addRow([{ error: '#N/A' }, true, false, { formula: '1/0', result: { error: '#DIV/0!' } }]);
  sheet.addRow([
    { text: '+33140001072', hyperlink: 'tel:+33140001072' },
    '<a & "b">\'',
    'line\nbreak',
    '  spaced  ',
    '日本語 😀',
    '',
    Number('12345678901234567'),
    -0.5,
    1e-10,
  ]);
  DATE_FORMATS.forEach((format, index) => {
    const cell = sheet.getCell(8, index + 1);
    cell.value = index % 2 === 0 ? new Date(Date.UTC(2024, 1, 29, 13, 45, 30)) : 45351.75;
    cell.numFmt = format;
  });
  NUMBER_FORMATS.forEach((format, index) => {
    const cell = sheet.getCell(9, index + 1);
    cell.value = index === 3 ? 33140001073 : 42.125;
    cell.numFmt = format;
  });
  sheet.getCell('A12').value = '0044';
  sheet.getCell('D12').value = 7;
  sheet.getColumn(11).numFmt = '0.000';
  sheet.getCell('K13').value = 3.14159;
  sheet.getRow(14).numFmt = 'yyyy-mm-dd';
  sheet.getCell('A14').value = 45000;
  sheet.getCell('B14').value = 'text in a dated row';
}

async function everyKind(options: { date1904?: boolean } = {}): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  if (options.date1904) workbook.properties.date1904 = true;
  fillEveryKind(workbook.addWorksheet('LineRelation'));
  workbook.addWorksheet('#Notes').addRow(['a note', 1, new Date(Date.UTC(2020, 0, 1))]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function streamed(useSharedStrings: boolean): Promise<Buffer> {
  const path = join(temp, `streamed-${useSharedStrings}.xlsx`);
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings, useStyles: true });
  const sheet = writer.addWorksheet('LineRelation');
  fillEveryKind(sheet);
  for (let row = 20; row < 2500; row += 1) sheet.getRow(row).values = [`+3319${row}`, 'add', row, `Person ${row} & <co>`];
  sheet.commit();
  await writer.commit();
  return readFileSync(path);
}

describe('every workbook the tests keep or write reads as the reference reads it', () => {
  // The hostile files are refused: bulk-validate-hostile.test.ts says how.
  const files = readdirSync(FIXTURES).filter((name) => name.endsWith('.xlsx') && !name.startsWith('hostile-'));
  it.each(files)('fixture %s', async (name) => {
    await expectSameRows(join(FIXTURES, name));
  });

  it('exceljs workbooks with every kind of cell, 1900 and 1904 dates', async () => {
    await expectSameRows(saved(await everyKind()));
    await expectSameRows(saved(await everyKind({ date1904: true })));
  });

  it('exceljs streamed workbooks, with inline strings and with shared strings', async () => {
    await expectSameRows(saved(await streamed(false)));
    await expectSameRows(saved(await streamed(true)));
  });

  it('the fixture sheets, the cells workbook', async () => {
    await expectSameRows(saved(await exceljsWorkbook(DIRECTIVE_SHEETS)));
    await expectSameRows(saved(await exceljsWorkbook(lineRelationSheets('LineRelation', true))));
    await expectSameRows(saved(await cellsWorkbook()));
  });
});

/** A workbook of the line-relation fixture with its first sheet, strings or styles replaced. */
function handWritten(parts: { sheet?: string; strings?: string | null; styles?: string | null; workbook?: string }): string {
  const base = readZip(readFileSync(join(FIXTURES, 'line-relation-exceljs.xlsx')));
  const replaced: ZipPart[] = [];
  for (const part of base) {
    const replacements: Record<string, string | null | undefined> = {
      'xl/worksheets/sheet1.xml': parts.sheet,
      'xl/sharedStrings.xml': parts.strings,
      'xl/styles.xml': parts.styles,
      'xl/workbook.xml': parts.workbook,
    };
    const replacement = replacements[part.name];
    if (replacement === null) continue;
    replaced.push({ name: part.name, data: replacement === undefined ? part.data : Buffer.from(replacement, 'utf8') });
  }
  return saved(writeZip(replaced));
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const sheetXml = (rows: string, root = 'worksheet', data = 'sheetData'): string =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${root} ${NS} xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><${data}>${rows}</${data}></${root}>`;

const STYLES = `<?xml version="1.0" encoding="UTF-8"?>
<styleSheet ${NS}>
  <numFmts count="3"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/><numFmt numFmtId="165" formatCode="00000"/><numFmt numFmtId="166" formatCode="&quot;day &quot;d"/></numFmts>
  <fonts count="1"><font><sz val="11"/></font></fonts>
  <cellStyleXfs count="1"><xf numFmtId="14" fontId="0"/></cellStyleXfs>
  <cellXfs count="7">
    <xf numFmtId="0" fontId="0" xfId="0"/>
    <xf numFmtId="14" fontId="0" xfId="0" applyNumberFormat="1"/>
    <xf numFmtId="164" fontId="0" xfId="0" applyNumberFormat="1"><alignment horizontal="left"/></xf>
    <xf numFmtId="165" fontId="0" xfId="0"/>
    <xf numFmtId="49" fontId="0" xfId="0"/>
    <xf numFmtId="166" fontId="0" xfId="0"/>
    <xf numFmtId="27" fontId="0" xfId="0"/>
  </cellXfs>
</styleSheet>`;

const STRINGS = `<?xml version="1.0" encoding="UTF-8"?>
<sst ${NS} count="8" uniqueCount="8">
<si><t>plain</t></si>
<si>
  <t xml:space="preserve">  pretty  </t>
</si>
<si><r><t>rich </t></r><r><rPr><b/><sz val="11"/><rFont val="Calibri"/></rPr><t>run</t></r></si>
<si><t>a &amp; b &lt;c&gt; &#233;&#x1F600;</t></si>
<si><t/></si>
<si><t></t></si>
<si><t>x_x000D_y</t></si>
<si><r><t></t></r></si>
</sst>`;

const CELLS = `
<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c><c r="F1" t="s"><v>5</v></c><c r="G1" t="s"><v>6</v></c><c r="H1" t="s"><v>7</v></c></row>
<row r="2" s="2" customFormat="1"><c r="A2"><v>45000</v></c><c r="B2" s="3"><v>42</v></c><c r="C2" s="0"><v>1.5</v></c><c r="D2" s="5"><v>45000.25</v></c><c r="E2" s="6"><v>45000</v></c><c r="F2" s="4"><v>33140001073</v></c></row>
<row r="3"><c r="C3" t="inlineStr"><is><t>c</t></is></c><c r="A3" t="str"><v>a &amp;lt; b</v></c><c r="B3" t="b"><v>0</v></c></row>
<row r="4"><c r="A4" t="e"><v>#REF!</v></c><c r="B4" t="d"><v>2024-01-02T00:00:00</v></c><c r="C4" s="1"><v>45000.5</v></c><c r="D4" t="n"><v>7</v></c><c r="E4" t="b"><v>yes</v></c><c r="F4"><v></v></c><c r="G4" s="1"><v/></c></row>
<row r="5"><c r="A5"><f>1+1</f><v>2</v></c><c r="B5" t="str"><f>"x"</f><v>x &amp;amp; y</v></c><c r="C5" t="b"><f>TRUE()</f><v>1</v></c><c r="D5" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="E5"><f t="shared" ref="E5:E6" si="0">A5</f><v>2</v></c><c r="F5"><f>NOW()</f></c><c r="G5" t="str"><f>""</f><v></v></c></row>
<row r="6"><c r="E6"><f t="shared" si="0"/><v>3</v></c><c r="F6" s="1"><f>A5</f><v>45000</v></c></row>
<row r="7">
  <c r="A7" t="str">
    <v>pretty</v>
  </c>
  <c r="C7"><v>&#49;&#x32;</v></c>
  <!-- a comment -->
  <c r="D7" t="str"><v><![CDATA[cdata]]></v></c>
  <c r="E7" t="inlineStr"><is><t xml:space="preserve"> kept </t></is></c>
</row>
<row r="9"/>
<row r="10"><c r="A10" t="s"><v>99</v></c><c r="B10" s="2"/><c r="C10" s="77"><v>5</v></c><c r="D10" t="s"><v></v></c><c r="E10" t="s"><v>1.9</v></c></row>
<row r="11"><c r="A11" t="s"><v>0</v></c><c r="A11" s="2"/><c r="B11"><v>45000</v></c><c r="B11" s="2"/><c r="C11" s="3"><v>1</v></c><c r="C11"/><c r="D11"><v>1</v></c><c r="D11" t="s"><v>0</v></c></row>
<row r="12"><c r="$A$12"><v>1</v></c><c r="AB12"><v>2</v></c><c r="C99"><v>3</v></c></row>
<row r="13" spans="1:2"><c r="A13" s="0"><v>3</v></c><c r="B13" t="str"><v>crlf\r\nend\rx</v></c></row>
<row r="15" s="4"><c r="A15"><v>12</v></c><c r="B15" s="1"><v>12</v></c></row>
`;

describe('hand-written sheets read as the reference reads them', () => {
  it('cells of every type, styles, shared strings, whitespace, entities, repeated and unordered columns', async () => {
    // Written by hand to be what Excel shows: SheetJS gives up on this sheet, so the values are spelled out.
    const expected = {
      A1: 'text: plain',
      B1: 'text:   pretty  ',
      C1: 'text: rich run',
      D1: 'text: a & b <c> é😀',
      G1: 'text: x\ry',
      // A row's style is for cells made later: a cell without `s` has style 0.
      A2: 'number: 45000 (General)',
      B2: 'number: 42 (00000)',
      C2: 'number: 1.5 (General)',
      D2: 'date: 2023-03-15T06:00:00.000Z',
      E2: 'date: 2023-03-15T00:00:00.000Z',
      F2: 'number: 33140001073 (@)',
      A3: 'text: a &lt; b',
      B3: 'boolean: false',
      C3: 'text: c',
      A4: 'error: #REF!',
      B4: 'date: 2024-01-02T00:00:00.000Z',
      C4: 'date: 2023-03-15T12:00:00.000Z',
      D4: 'number: 7 (General)',
      E4: 'error: an unreadable value',
      A5: 'number: 2 (General)',
      B5: 'text: x &amp; y',
      C5: 'boolean: true',
      D5: 'error: #DIV/0!',
      E5: 'number: 2 (General)',
      F5: 'no-value: no value',
      E6: 'number: 3 (General)',
      F6: 'date: 2023-03-15T00:00:00.000Z',
      A7: 'text: pretty',
      C7: 'number: 12 (General)',
      D7: 'text: cdata',
      E7: 'text:  kept ',
      A10: 'error: an unreadable value',
      C10: 'number: 5 (General)',
      E10: 'text:   pretty  ',
      // A column given twice in a row: the last is the cell (A11, B11 and C11 end empty).
      D11: 'text: plain',
      A12: 'number: 1 (General)',
      C12: 'number: 3 (General)',
      AB12: 'number: 2 (General)',
      A13: 'number: 3 (General)',
      B13: 'text: crlf\nend\nx',
      A15: 'number: 12 (General)',
      B15: 'date: 1900-01-12T00:00:00.000Z',
    };
    expect(await cellsShown(handWritten({ sheet: sheetXml(CELLS), strings: STRINGS, styles: STYLES }))).toEqual(expected);
    expect(await cellsShown(handWritten({ sheet: `\uFEFF${sheetXml(CELLS)}`, strings: STRINGS, styles: STYLES }))).toEqual(expected);
  });

  it('namespace prefixes', async () => {
    const prefixed = sheetXml(
      '<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>hi</x:t></x:is></x:c></x:row>',
      'x:worksheet',
      'x:sheetData',
    );
    await expectSameRows(handWritten({ sheet: prefixed }));
    await expectSameRows(
      handWritten({
        sheet: sheetXml(
          '<row r="1"><x:c r="A1" t="inlineStr"><is><t>hi</t></is></x:c><c r="B1" t="inlineStr"><is><t>ho</t></is></c></row>',
        ),
      }),
    );
  });

  it('rows and cells without a reference', async () => {
    await expectSameRows(handWritten({ sheet: sheetXml('<row><c r="A1" t="inlineStr"><is><t>hi</t></is></c></row>') }));
    await expectSameRows(handWritten({ sheet: sheetXml('<row r="1"><c t="inlineStr"><is><t>hi</t></is></c></row>') }));
    // A reference without letters (`r="1"`) places nothing: the cell follows the one before.
    expect(
      await cellsShown(
        handWritten({
          sheet: sheetXml(
            '<row r="1"><c r="A1" t="inlineStr"><is><t>hi</t></is></c></row><row/><row></row><row r="4"><c r="1"><v>1</v></c></row>',
          ),
        }),
      ),
    ).toEqual({ A1: 'text: hi', A4: 'number: 1 (General)' });
    // No row of a spreadsheet is numbered 0 or less: the file is damaged.
    expect(
      await cellsShown(handWritten({ sheet: sheetXml('<row r="1"><c r="A1"><v>1</v></c></row><row r="0"><c r="B0"><v>2</v></c></row>') })),
    ).toMatch(/^400 bad-workbook: .*cannot be read as spreadsheet XML \(a row numbered 0\)/);
  });

  it('no shared strings part, no styles part', async () => {
    // SheetJS reads no sheet without its shared strings: what Excel shows is spelled out.
    expect(
      await cellsShown(
        handWritten({
          sheet: sheetXml('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>x</t></is></c></row>'),
          strings: null,
        }),
      ),
    ).toEqual({ A1: 'error: an unreadable value', B1: 'text: x' });
    expect(
      await cellsShown(
        handWritten({
          sheet: sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c><c r="B1" s="1"><v>45000</v></c></row>'),
          styles: null,
        }),
      ),
    ).toEqual({ A1: 'text: x', B1: 'number: 45000 (General)' });
    expect(await cellsShown(handWritten({ sheet: sheetXml('<row r="1" s="0"><c r="A1"><v>1</v></c></row>'), styles: null }))).toEqual({
      A1: 'number: 1 (General)',
    });
    await expectSameRows(
      handWritten({
        sheet: sheetXml('<row r="1"><c r="A1" s="1"><v>1</v></c></row>'),
        styles: `<styleSheet ${NS}><numFmts count="0"/></styleSheet>`,
      }),
    );
  });

  it('XML that is not XML is a damaged workbook, said in the fault shape', async () => {
    const broken = [
      '<row r="1"><c r="A1"><v>1</v></row>',
      '<row r="1"><c r="A1" t="str"><v>&nbsp;</v></c></row>',
      '<row r="1"><c r="A1" t="str"><v>&#0;</v></c></row>',
      '<row r="1"><c r="A1" t="str"><v>bell\u0007</v></c></row>',
      '<row r="1"><c r="A1" t=s><v>0</v></c></row>',
    ];
    const damaged =
      /^400 bad-workbook: book\.xlsx is not a readable \.xlsx workbook \(its part xl\/(worksheets\/sheet1|sharedStrings)\.xml cannot be read as spreadsheet XML/;
    for (const rows of broken)
      expect(await ownRows(handWritten({ sheet: sheetXml(rows) }), 'book.xlsx')).toEqual({
        fault: expect.stringMatching(damaged) as unknown,
      });
    expect(await ownRows(handWritten({ strings: '<sst><si><t>a</si></sst>' }), 'book.xlsx')).toEqual({
      fault: expect.stringMatching(damaged) as unknown,
    });
    const workbook =
      readZip(readFileSync(join(FIXTURES, 'line-relation-exceljs.xlsx')))
        .find((part) => part.name === 'xl/workbook.xml')
        ?.data.toString('utf8') ?? '';
    await expectSameRows(handWritten({ workbook: workbook.replace('<workbookPr ', '<workbookPr date1904="1" ') }));
  });
});

describe('what the reader takes from the XML, cell by cell', () => {
  it('refuses a bare & in a value, where a lenient parser would silently lose the rest of the sheet', async () => {
    const path = handWritten({
      sheet: sheetXml('<row r="1"><c r="A1" t="str"><v>a & b</v></c></row><row r="2"><c r="A2"><v>2</v></c></row>'),
    });
    expect(await ownRows(path, 'book.xlsx')).toEqual({
      fault: expect.stringContaining(
        '400 bad-workbook: book.xlsx is not a readable .xlsx workbook (its part xl/worksheets/sheet1.xml cannot be read as spreadsheet XML',
      ) as unknown,
    });
  });

  it('takes a shared string without its phonetic reading (Japanese furigana)', async () => {
    const strings = `<sst ${NS}><si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si></sst>`;
    const path = handWritten({ sheet: sheetXml('<row r="1"><c r="A1" t="s"><v>0</v></c></row>'), strings });
    const ours = await ownRows(path, 'book.xlsx');
    expect('sheets' in ours && ours.sheets[0][1][0].cells.get(1)).toEqual({ kind: 'text', text: '東京' });
  });

  it('takes inline text without its phonetic reading too', async () => {
    const path = handWritten({
      sheet: sheetXml(
        '<row r="1"><c r="A1" t="inlineStr"><is><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh></is></c><c r="B1" t="inlineStr"><is><r><t>東</t></r><r><t>京</t></r></is></c></row>',
      ),
    });
    const ours = await ownRows(path, 'book.xlsx');
    expect('sheets' in ours && [...ours.sheets[0][1][0].cells.values()]).toEqual([
      { kind: 'text', text: '東京' },
      // Inline rich text reads as all its runs.
      { kind: 'text', text: '東京' },
    ]);
  });

  it('reads inline rich text whole, every run', async () => {
    const path = handWritten({
      sheet: sheetXml(
        '<row r="7"><c r="B7" t="inlineStr"><is><r><t>rich</t></r><r><rPr><b/></rPr><t xml:space="preserve"> inline</t></r></is></c><c r="C7" t="inlineStr"><is><t>plain</t></is></c></row>',
      ),
    });
    const ours = await ownRows(path, 'book.xlsx');
    expect('sheets' in ours && [...ours.sheets[0][1][0].cells.values()]).toEqual([
      { kind: 'text', text: 'rich inline' },
      { kind: 'text', text: 'plain' },
    ]);
  });
});
