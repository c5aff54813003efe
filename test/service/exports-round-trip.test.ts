import ExcelJS from 'exceljs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../main/service';
import { requireModel } from '../../main/service/models/registry';
import { readWorkbook } from '../../main/service/sheets/read-workbook';
import { BASIC, openTestService, q, type TestService } from './helpers';

/**
 * Round trip: 1,000 LineRelations with awkward values (leading + and 0, long digit runs,
 * formula-like text, quotes, tabs, line breaks, accents, empty strings, numbers and flags)
 * are exported, and each row read back gives the stored instance, field by field.
 */
const LINES = '/api/relation/LineRelation';
const SITE = 'sys.hcs.Telco.Acme.RoundTrip';
const COUNT = 1000;

let t: TestService;
let exported: ApiResponse;
const stored = new Map<string, Record<string, unknown>>();

const arrayBufferOf = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer as ArrayBuffer;

const pick = <T>(values: T[], i: number): T => values[i % values.length];

/** A LineRelation payload: each field cycles through its own awkward values, so rows mix them. */
function lineData(i: number): Record<string, unknown> {
  const n = String(i).padStart(4, '0');
  const pattern = pick([`+3314555${n}`, `0033155${n}`, `\\+4420555${n}`, `12345678901234567${n}`, `9${n}XX#*`], i);
  return {
    pattern,
    routePartitionName: pick(['', `PT-${i % 7}`, `=cmd|' /C calc'!A${i}`], i),
    alertingName: pick([`Chloé Ñandú 漢字 ${i}`, `@SUM(A${i})`, `-${i} minus`, `+${i} plus`, `  spaced ${i}`, `Line ${i}`], i),
    description: pick([null, '=1+1', `line "quoted" & <tag> ${i}`, `\tTabbed ${i}`, `two\nlines ${i}`, '', `${i}`], i),
    hrInterval: pick([5, `${i}`, null, 0, -3], i),
    rejectAnonymousCall: i % 3 === 0,
    callForwardAll: pick(
      [
        { destination: `+33140${n}`, forwardToVoiceMail: true, callingSearchSpaceName: `CSS-${i % 5}` },
        { destination: null, forwardToVoiceMail: false, callingSearchSpaceName: null },
        { destination: `00${n}`, forwardToVoiceMail: false },
      ],
      i,
    ),
    e164AltNum: { numMask: pick(['+331XXXX', '0XXXX', null], i), isUrgent: i % 2 === 0 },
  };
}

/** null means "no value" in a sheet, as does an object left with no values. */
function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const kept = withoutEmpty(child);
    if (kept === null || kept === undefined) continue;
    if (typeof kept === 'object' && !Array.isArray(kept) && Object.keys(kept).length === 0) continue;
    if (Array.isArray(kept) && kept.length === 0) continue;
    result[key] = kept;
  }
  return result;
}

/** What a bulk load would send for an instance: its fields, minus the computed ones and the empty ones. */
function loadable(data: Record<string, unknown>): unknown {
  const fields = { ...data };
  delete fields.hierarchy_path;
  return withoutEmpty(fields);
}

function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split('.');
  let current: Record<string, unknown> = target;
  segments.slice(0, -1).forEach((segment, index) => {
    const container = /^\d+$/.test(segments[index + 1]) ? [] : {};
    current[segment] ??= container;
    current = current[segment] as Record<string, unknown>;
  });
  current[segments[segments.length - 1]] = value;
}

beforeAll(async () => {
  t = await openTestService({ demo: true });
  const node = await t.call('POST', `/api/data/HierarchyNode/${q('sys.hcs.Telco.Acme')}`, {
    data: { name: 'RoundTrip', node_type: 'Site' },
  });
  if (node.status !== 200) throw new Error(`setup: ${node.text}`);
  for (let i = 0; i < COUNT; i += 1) {
    const made = await t.call('POST', `${LINES}/${q(SITE)}`, { data: lineData(i) });
    if (made.status !== 200) throw new Error(`setup ${i}: ${made.text}`);
  }
  for (let skip = 0; skip < COUNT; skip += 500) {
    const page = await t.get(`${LINES}/${q(SITE, `&summary=false&limit=500&skip=${skip}`)}`);
    for (const resource of page.body.resources) stored.set(resource.meta.pkid, resource.data);
  }
  exported = await t.service.handle({ method: 'POST', url: `${LINES}/export/${q(SITE)}`, headers: { authorization: BASIC } });
}, 300_000);
afterAll(() => t.close());

describe('export round trip', () => {
  it('exports every instance, and exceljs reads each row back as the stored instance', async () => {
    expect(exported.status, String(exported.body)).toBe(200);
    expect(stored.size).toBe(COUNT);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(arrayBufferOf(exported.body as Uint8Array));
    const sheet = workbook.worksheets[0];
    const names = Array.from({ length: sheet.getRow(2).cellCount }, (_, i) => String(sheet.getRow(2).getCell(i + 1).value));
    expect(sheet.rowCount).toBe(4 + COUNT);
    const mismatches: string[] = [];
    for (let rowNumber = 5; rowNumber < 5 + COUNT; rowNumber += 1) {
      const row = sheet.getRow(rowNumber);
      const pkid = String(row.getCell(3).value);
      const data: Record<string, unknown> = {};
      names.forEach((name, index) => {
        const cell = row.getCell(index + 1);
        if (index < 3 || cell.value === null) return;
        // A formula could only come from the writer: there must be none.
        if (cell.type === ExcelJS.ValueType.Formula) mismatches.push(`${cell.address} is a formula`);
        setAt(data, name, cell.value === ' ' ? '' : cell.value);
      });
      expect([row.getCell(1).value, row.getCell(2).value]).toEqual([SITE, 'modify']);
      const expected = stored.get(pkid);
      if (!expected) mismatches.push(`row ${rowNumber}: unknown pkid ${pkid}`);
      else expect(withoutEmpty(data), `row ${rowNumber}`).toEqual(loadable(expected));
    }
    expect(mismatches).toEqual([]);
  });

  it('reads back through the bulk load reader: same model, layout, meta columns and data, no issues', async () => {
    const fileName = 'relation_LineRelation_exportedsheet_formatted.xlsx';
    const path = join(t.dataDir, fileName);
    writeFileSync(path, exported.body as Uint8Array);
    const parsed = await readWorkbook(path, fileName);
    expect(parsed.issues).toEqual([]);
    expect(parsed.sheets).toHaveLength(1);
    const [sheet] = parsed.sheets;
    expect(sheet).toMatchObject({ name: 'relation_LineRelation', modelType: 'relation/LineRelation', layout: 'directive' });
    expect(sheet.directive).toMatchObject({ entity: 'relation/LineRelation', hierarchy: SITE, parallel: false, evaluateMacros: false });
    expect(sheet.rows).toHaveLength(COUNT);
    const seen = new Set<string>();
    for (const row of sheet.rows) {
      expect(row.action).toBe('modify');
      expect(row.hierarchy).toBe(SITE);
      const expected = stored.get(row.pkid ?? '');
      expect(expected, `row ${row.rowNumber}: pkid ${row.pkid}`).toBeDefined();
      seen.add(row.pkid ?? '');
      expect(withoutEmpty(row.data), `row ${row.rowNumber}`).toEqual(loadable(expected ?? {}));
    }
    expect(seen.size).toBe(COUNT);
  });

  it('round-trips every model of the demo world through the reader: arrays, nested lists, free-form JSON', async () => {
    const models = [
      'data/HierarchyNode',
      'data/User',
      'data/Countries',
      'data/InternalNumberInventory',
      'data/ConfigurationTemplate',
      'data/FieldDisplayPolicy',
      'device/cucm/Phone',
      'device/cucm/Line',
      'relation/Subscriber',
    ];
    for (const modelType of models) {
      const model = requireModel(modelType);
      const response = await t.service.handle({
        method: 'POST',
        url: `/api/${modelType}/export/${q('sys')}`,
        headers: { authorization: BASIC },
      });
      expect(response.status, `${modelType}: ${String(response.body)}`).toBe(200);
      const path = join(t.dataDir, `${modelType.replace(/\//g, '_')}.xlsx`);
      writeFileSync(path, response.body as Uint8Array);
      const parsed = await readWorkbook(path, 'export.xlsx');
      expect(parsed.issues, modelType).toEqual([]);
      const listed = await t.get(`/api/${modelType}/${q('sys', '&summary=false&limit=2000')}`);
      expect(parsed.sheets[0].rows.length, modelType).toBe(listed.body.pagination.total);
      const byPkid = new Map<string, Record<string, unknown>>(
        listed.body.resources.map((resource: { meta: { pkid: string }; data: Record<string, unknown> }) => [
          resource.meta.pkid,
          resource.data,
        ]),
      );
      for (const row of parsed.sheets[0].rows) {
        const data = { ...(byPkid.get(row.pkid ?? '') ?? {}) };
        for (const [name, field] of Object.entries(model.fields)) if (field.readonly || field.writeOnly) delete data[name];
        expect(withoutEmpty(row.data), `${modelType} row ${row.rowNumber}`).toEqual(withoutEmpty(data));
      }
    }
  });

  it('loads back as modify with one column edited: exactly that field changes, on every instance', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(arrayBufferOf(exported.body as Uint8Array));
    const sheet = workbook.worksheets[0];
    const names = Array.from({ length: sheet.getRow(2).cellCount }, (_, i) => String(sheet.getRow(2).getCell(i + 1).value));
    const column = names.indexOf('alertingName') + 1;
    expect(column).toBeGreaterThan(0);
    for (let rowNumber = 5; rowNumber < 5 + COUNT; rowNumber += 1) sheet.getRow(rowNumber).getCell(column).value = `Edited ${rowNumber}`;
    const edited = Buffer.from(await workbook.xlsx.writeBuffer());
    const boundary = 'round-trip-boundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="uploadedfile"; filename="edited.xlsx"\r\n\r\n`),
      edited,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    expect(
      (
        await t.call('POST', `/api/uploadfiles/${q(SITE)}`, new Uint8Array(body), {
          'content-type': `multipart/form-data; boundary=${boundary}`,
        })
      ).status,
    ).toBe(200);
    const loaded = await t.call('POST', `/api/tool/BulkLoad/${q(SITE, '&method=bulkload_spreadsheet')}`, {
      bulkload_file: 'edited.xlsx',
      execute_immediately: true,
    });
    expect(loaded.body).toMatchObject({ status: 'Success', detail: `[ ${COUNT}/${COUNT} ] succeeded from [ 1 ] sheet in edited.xlsx` });
    const after = new Map<string, Record<string, unknown>>();
    for (let skip = 0; skip < COUNT; skip += 500) {
      const page = await t.get(`${LINES}/${q(SITE, `&summary=false&limit=500&skip=${skip}`)}`);
      for (const resource of page.body.resources) after.set(resource.meta.pkid, resource.data);
    }
    expect(after.size).toBe(COUNT);
    const unexpected: string[] = [];
    for (const [pkid, before] of stored) {
      const now = after.get(pkid) ?? {};
      for (const field of new Set([...Object.keys(before), ...Object.keys(now)])) {
        if (field === 'alertingName') continue;
        if (JSON.stringify(now[field]) !== JSON.stringify(before[field]))
          unexpected.push(`${pkid} ${field}: ${JSON.stringify(before[field])} -> ${JSON.stringify(now[field])}`);
      }
      if (!/^Edited \d+$/.test(String(now.alertingName))) unexpected.push(`${pkid} alertingName: ${String(now.alertingName)}`);
    }
    expect(unexpected.slice(0, 20)).toEqual([]);
  }, 120_000);
});
