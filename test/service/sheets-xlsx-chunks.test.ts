import { describe, expect, it } from 'vitest';
import type { SheetRow } from '../../main/service/sheets/sheet-reader';
import { SheetRowParser } from '../../main/service/sheets/xlsx-row-stream';
import { sharedStringsParser } from '../../main/service/sheets/xlsx-shared-strings';
import { stylesParser } from '../../main/service/sheets/xlsx-styles';
import { MalformedXml } from '../../main/service/sheets/xlsx-xml-tokens';

/**
 * The row reader takes the sheet's XML in whatever chunks inflating gives (64 KB, cut anywhere:
 * inside a tag, an entity, a multi-byte character, between `\r` and `\n`): the rows must not
 * depend on where the cuts fall.
 */
const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const STYLES = `<styleSheet ${NS}><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164"/></cellXfs></styleSheet>`;
const STRINGS = `<sst ${NS}><si><t>shared é</t></si><si><r><t>ri</t></r><r><rPr><b/></rPr><t>ch</t></r></si></sst>`;

function rowsOf(xml: string, chunkSize: number): SheetRow[] {
  const strings = sharedStringsParser();
  strings.push(Buffer.from(STRINGS));
  const styles = stylesParser();
  styles.push(Buffer.from(STYLES));
  const parser = new SheetRowParser({ strings: strings.done(), styles: styles.done(), date1904: false });
  const bytes = Buffer.from(xml, 'utf8');
  const rows: SheetRow[] = [];
  for (let at = 0; at < bytes.length; at += chunkSize) {
    parser.push(bytes.subarray(at, at + chunkSize));
    rows.push(...parser.take());
  }
  parser.end();
  return [...rows, ...parser.take()];
}

const plain = (rows: SheetRow[]): unknown => rows.map((row) => ({ number: row.number, cells: [...row.cells] }));

const row = (n: number): string =>
  `<row r="${n}" spans="1:6"><c r="A${n}" t="inlineStr"><is><t>Ünïcödé 😀 ${n}</t></is></c><c r="B${n}" t="s"><v>${n % 2}</v></c>` +
  `<c r="C${n}" s="1"><v>${45000 + n}</v></c><c r="D${n}" t="str"><v>a &amp; b &#x1F600; ${n}\r\nline</v></c>` +
  `<c r="E${n}"><f>A1</f><v>${n}.5</v></c><!-- note ${n} --><c r="F${n}" t="b"><v>1</v></c></row>\n`;
const SHEET = `<?xml version="1.0" encoding="UTF-8"?>\n<worksheet ${NS}><sheetData>${Array.from({ length: 40 }, (_, i) => row(i + 1)).join('')}</sheetData></worksheet>`;

describe('the row reader, fed in chunks', () => {
  it('reads the same rows whatever the chunk size', () => {
    const whole = rowsOf(SHEET, SHEET.length * 4);
    expect(whole).toHaveLength(40);
    expect([...whole[0].cells.values()]).toEqual([
      { kind: 'text', text: 'Ünïcödé 😀 1' },
      { kind: 'text', text: 'rich' },
      { kind: 'date', value: new Date(Date.UTC(2023, 2, 16)) },
      { kind: 'text', text: 'a & b 😀 1\nline' },
      { kind: 'number', value: 1.5, numFmt: undefined },
      { kind: 'boolean', value: true },
    ]);
    for (const size of [1, 2, 3, 5, 7, 13, 64, 1000]) expect(plain(rowsOf(SHEET, size))).toEqual(plain(whole));
  });

  it('passes on a text run longer than it carries over, whole', () => {
    const long = `${'x'.repeat(100_000)}&amp;${'y'.repeat(70_000)}\r\n${'z'.repeat(10)}`;
    const xml = `<worksheet ${NS}><sheetData><row r="1"><c r="A1" t="str"><v>${long}</v></c></row></sheetData></worksheet>`;
    const expected = `${'x'.repeat(100_000)}&${'y'.repeat(70_000)}\n${'z'.repeat(10)}`;
    for (const size of [65_536, 100_003, 170_010]) expect(rowsOf(xml, size)[0].cells.get(1)).toEqual({ kind: 'text', text: expected });
  });

  it('refuses malformed XML wherever the cut falls', () => {
    const broken = SHEET.replace('<c r="F7" t="b"><v>1</v></c>', '<c r="F7" t="b"><v>1</v></x>');
    expect(broken).not.toBe(SHEET);
    for (const size of [1, 64, 100_000]) expect(() => rowsOf(broken, size)).toThrow(MalformedXml);
  });

  it('refuses a tag too long to carry from chunk to chunk', () => {
    const xml = `<worksheet ${NS}><sheetData><row r="1" x="${'x'.repeat(9 * 1024 * 1024)}"></row></sheetData></worksheet>`;
    expect(() => rowsOf(xml, 1024 * 1024)).toThrow('a tag longer than 8 MB');
  });
});
