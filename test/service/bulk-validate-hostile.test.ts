import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exceljsWorkbook } from '../fixtures/fixture-exceljs';
import { LINE_RELATION_HEADER } from '../fixtures/fixture-specs';
import { readZip, writeZip } from '../fixtures/zip-tools';
import { openTestService, PARIS, type TestService } from './helpers';
import { fixture, upload, uploadsIn, validate } from './bulk-validate-helpers';

/**
 * Files that are no workbook, or a workbook built to hurt: each is uploaded, then validated
 * through the real routes, and must get a clear 4xx (or issues), never a crash or a hang; the
 * store must not change and the uploads folder must hold only what was uploaded.
 */
let t: TestService;
let storeBefore: string;
beforeAll(async () => {
  t = await openTestService({ demo: true });
  storeBefore = t.snapshot({ withTransactions: true });
});
afterAll(() => t.close());

let count = 0;
/** Uploads and validates; checks that nothing but the upload itself was left behind. */
async function attempt(bytes: Buffer) {
  const name = `hostile-${(count += 1)}.xlsx`;
  const filesBefore = uploadsIn(t);
  const uploaded = await upload(t, name, bytes, PARIS);
  expect(uploaded.status).toBe(200);
  const reply = await validate(t, name, PARIS);
  const added = uploadsIn(t).filter((file) => !filesBefore.includes(file));
  expect(added).toEqual([uploaded.body.uploadedfiles[0].id]);
  expect(t.snapshot({ withTransactions: true })).toBe(storeBefore);
  return reply;
}

const lineRelation = (): Buffer => fixture('line-relation-exceljs.xlsx');

describe('files that are not a workbook', () => {
  it('a text file renamed .xlsx: 415', async () => {
    const reply = await attempt(fixture('hostile-not-a-workbook.xlsx'));
    expect([reply.status, reply.body.code]).toEqual([415, 'unsupported-media-type']);
    expect(reply.body.message).toMatch(
      /^hostile-\d+\.xlsx is not an \.xlsx workbook \(it is a text file \(CSV or similar\)\): save it from Excel or LibreOffice/,
    );
  });

  it('an empty file: 415', async () => {
    const reply = await attempt(Buffer.alloc(0));
    expect([reply.status, reply.body.code]).toEqual([415, 'unsupported-media-type']);
    expect(reply.body.message).toContain('the file is empty');
  });

  it('an encrypted workbook (an OLE file): 400 naming the problem', async () => {
    const reply = await attempt(fixture('hostile-encrypted.xlsx'));
    expect([reply.status, reply.body.code]).toEqual([400, 'encrypted-workbook']);
    expect(reply.body.message).toMatch(/is encrypted or an old \.xls workbook: save it as an unprotected \.xlsx and upload it again\.$/);
  });

  it('a ZIP of something else, and an OpenDocument file: 415', async () => {
    const other = await attempt(writeZip([{ name: 'readme.txt', data: Buffer.from('hello') }]));
    expect([other.status, other.body.code]).toEqual([415, 'unsupported-media-type']);
    expect(other.body.message).toContain('it is a ZIP archive, but no spreadsheet');
    const ods = await attempt(
      writeZip([
        { name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.spreadsheet'), stored: true },
        { name: 'content.xml', data: Buffer.from('<x/>') },
      ]),
    );
    expect(ods.body.message).toContain('it is an OpenDocument spreadsheet');
  });

  it('a workbook cut short, or with XML that is not XML: 400', async () => {
    const bytes = lineRelation();
    const cut = await attempt(bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect([cut.status, cut.body.code]).toEqual([400, 'bad-workbook']);
    const garbled = writeZip(
      readZip(bytes).map((part) =>
        part.name === 'xl/worksheets/sheet1.xml'
          ? { ...part, data: Buffer.from('<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData') }
          : part,
      ),
    );
    const broken = await attempt(garbled);
    expect([broken.status, broken.body.code]).toEqual([400, 'bad-workbook']);
  });
});

describe('workbooks built to exhaust', () => {
  it('a zip bomb whose directory declares gigabytes: 413 before inflating', async () => {
    const reply = await attempt(fixture('hostile-zip-bomb-declared.xlsx'));
    expect([reply.status, reply.body.code]).toEqual([413, 'too-large']);
    expect(reply.body.message).toMatch(/is unsafe: it inflates to 4096 MB, more than 20x the 50 MB upload limit \(1000 MB\)\.$/);
  });

  it('a zip bomb that lies about its size: 413 as soon as it inflates past it', async () => {
    const reply = await attempt(fixture('hostile-zip-bomb-lying.xlsx'));
    expect([reply.status, reply.body.code]).toEqual([413, 'too-large']);
    expect(reply.body.message).toMatch(
      /its part xl\/worksheets\/sheet1\.xml inflates to far more than its declared \d+ bytes \(a zip bomb\)\.$/,
    );
  });

  it('a cell beyond column XFD: 413 naming the limit', async () => {
    const reply = await attempt(fixture('hostile-too-wide.xlsx'));
    expect([reply.status, reply.body.code]).toEqual([413, 'too-large']);
    expect(reply.body.message).toMatch(/has a cell in column XFE \(column 16385\), beyond the limit of 16,384 columns \(XFD\)\.$/);
  });

  it('a header 16,384 columns wide: 400 naming the first cell, the rest in details', async () => {
    const header = Array.from({ length: 16_384 }, (_, index) => `x${index}`);
    const reply = await attempt(await exceljsWorkbook([{ name: 'LineRelation', rows: [header, ['+33140001050']] }]));
    expect([reply.status, reply.body.code]).toEqual([400, 'unknown-column']);
    expect(reply.body.message).toBe(
      "Sheet 'LineRelation', cell A1: column 'x0' is not a field or meta column of relation/LineRelation (and 16383 more columns: see details).",
    );
    expect(reply.body.details).toHaveLength(20);
  });

  it('data out in column XFD: read, with the column reported', async () => {
    const row: (string | null)[] = ['sys.hcs.Telco.Acme.Paris', null, null, '+33140001050', 'Alice'];
    row[16_383] = 'far away';
    const reply = await attempt(await exceljsWorkbook([{ name: 'LineRelation', rows: [LINE_RELATION_HEADER, row] }]));
    expect(reply.status).toBe(200);
    expect(reply.body.sheets[0].issues).toEqual([
      {
        row: 2,
        column: 'XFD',
        field: '',
        severity: 'warning',
        code: 'unlabelled-column',
        message: 'Row 2, column XFD (XFD2): this column has no header, so its values are ignored: give it a header or clear it.',
      },
    ]);
  });
});

describe('odd cells', () => {
  it('comments, merged cells, rich text, dates, booleans and errors are issues or values, never a fault', async () => {
    for (const name of ['directive-exceljs.xlsx', 'directive-libreoffice.xlsx', 'cells-exceljs.xlsx']) {
      const reply = await attempt(fixture(name));
      expect(reply.status).toBe(200);
      expect(reply.body.summary.errors).toBeGreaterThan(0);
    }
  });

  it('still answers a clean workbook after all of the above', async () => {
    const reply = await attempt(lineRelation());
    expect([reply.status, reply.body.success, reply.body.summary.errors]).toEqual([200, true, 0]);
  });
});
