import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { exceljsWorkbook } from '../fixtures/fixture-exceljs';
import type { SheetSpec, SpecCell } from '../fixtures/fixture-specs';
import { ACME, openTestService, PARIS, q, type Reply, type TestService } from './helpers';

/** Uploading a workbook and validating it through the real routes, as the renderer does. */
export const FIXTURES = join(__dirname, '..', 'fixtures');

export const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));

const BOUNDARY = 'bulk-validate-boundary';

export function multipart(filename: string, bytes: Buffer): Uint8Array {
  return new Uint8Array(
    Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="uploadedfile"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
  );
}

export async function upload(
  t: TestService,
  filename: string,
  bytes: Buffer,
  hierarchy: string,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const reply = await t.call('POST', `/api/uploadfiles/${q(hierarchy)}`, multipart(filename, bytes), {
    'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    ...headers,
  });
  return reply;
}

export const validate = (t: TestService, filename: string, hierarchy: string, headers: Record<string, string> = {}): Promise<Reply> =>
  t.call('POST', `/api/tool/BulkLoad/${q(hierarchy, '&method=validate')}`, { bulkload_file: filename }, headers);

/** Uploads then validates; the reply of the validation. */
export async function uploadAndValidate(t: TestService, filename: string, bytes: Buffer, hierarchy: string): Promise<Reply> {
  const uploaded = await upload(t, filename, bytes, hierarchy);
  if (uploaded.status !== 200) throw new Error(`upload of ${filename} failed: ${uploaded.text}`);
  return validate(t, filename, hierarchy);
}

/** A one-sheet workbook in the compact layout: the sheet name names the model. */
export const compactWorkbook = (sheet: string, header: string[], rows: SpecCell[][]): Promise<Buffer> =>
  exceljsWorkbook([{ name: sheet, rows: [header, ...rows] }]);

export const workbookOf = (sheets: SheetSpec[]): Promise<Buffer> => exceljsWorkbook(sheets);

export const uploadsIn = (t: TestService): string[] => readdirSync(t.service.store.uploads.folder).sort();

export interface IssueLike {
  row: number;
  column: string;
  field: string;
  severity: string;
  code: string;
  message: string;
}

/** Every issue of a validation answer, with its sheet. */
// The answer is JSON of the validation shape; tests read it as a client would.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const issuesOf = (body: any): (IssueLike & { sheet: string })[] =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body.sheets.flatMap((sheet: any) => sheet.issues.map((issue: IssueLike) => ({ ...issue, sheet: sheet.name })));

export const LINE_HEADER = [
  '# Hierarchy Node',
  '# Action',
  '# Device',
  '# CFT Template',
  '# Directory Number',
  '# Alerting Name',
  'routePartitionName',
  'Unique Identifier (pkid)',
];

type LineValues = Partial<Record<'hierarchy' | 'action' | 'device' | 'template' | 'pattern' | 'name' | 'partition' | 'pkid', string>>;

/** A row under LINE_HEADER: hierarchy (Paris unless given), action, device, template, number, name, partition, pkid. */
export const line = (values: LineValues): SpecCell[] => [
  values.hierarchy ?? PARIS,
  values.action ?? null,
  values.device ?? null,
  values.template ?? null,
  values.pattern ?? null,
  values.name ?? null,
  values.partition ?? null,
  values.pkid ?? null,
];

/** What the rule tests need beyond the demo data: two Paris users, two templates and a bundle. */
export async function seedValidationWorld(t: TestService): Promise<void> {
  await t.call('POST', `/api/data/User/${q(PARIS)}`, { data: { username: 'paris.admin', role: 'admin', password: 'paris-admin-pw' } });
  await t.call('POST', `/api/data/User/${q(PARIS)}`, {
    data: { username: 'paris.operator', role: 'operator', password: 'paris-operator-pw' },
  });
  await t.call('POST', `/api/data/ConfigurationTemplate/${q(ACME)}`, {
    data: { name: 'Phone Defaults', target_model_type: 'device/cucm/Phone', merge_strategy: 'merge', template: { product: 'Cisco 8845' } },
  });
  await t.call('POST', `/api/data/ConfigurationTemplate/${q(ACME)}`, {
    data: {
      name: 'Bad Line Template',
      target_model_type: 'relation/LineRelation',
      merge_strategy: 'merge',
      template: { colour: 'red', alertingName: 'y'.repeat(60) },
    },
  });
  await t.call('POST', `/api/relation/Bundle/${q(PARIS)}`, {
    data: {
      userid: 'bundle.user',
      firstname: 'Bea',
      lastname: 'Bundle',
      device_name: 'SEPBUNDLE0001',
      pattern: '+33140001080',
      alertingName: 'Bea',
    },
  });
}

export const basicAuth = (user: string, password: string): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

/** Uploads under fresh names and validates, expecting the 200 validation answer. */
export function validator(t: TestService) {
  let files = 0;
  // The answer is JSON of the validation shape; tests read it as a client would.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const validateBook = async (bytes: Buffer, hierarchy = PARIS): Promise<any> => {
    const reply = await uploadAndValidate(t, `book-${(files += 1)}.xlsx`, bytes, hierarchy);
    expect(reply.status, reply.text).toBe(200);
    return reply.body;
  };
  return {
    validateBook,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    validateLines: async (rows: SpecCell[][], hierarchy = PARIS): Promise<any> =>
      validateBook(await compactWorkbook('LineRelation', LINE_HEADER, rows), hierarchy),
    uploaded: (): number => files,
  };
}

/** The one issue of a row with that code. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function issue(body: any, row: number, code: string): IssueLike & { sheet: string } {
  const found = issuesOf(body).filter((entry) => entry.row === row && entry.code === code);
  expect(found, JSON.stringify(issuesOf(body), null, 1)).toHaveLength(1);
  return found[0];
}

/** The demo world with the rule tests' additions, its fingerprint, and a validator over it. */
export async function openValidationWorld(): Promise<{ t: TestService; storeBefore: string; check: ReturnType<typeof validator> }> {
  const t = await openTestService({ demo: true });
  await seedValidationWorld(t);
  return { t, storeBefore: t.snapshot({ withTransactions: true }), check: validator(t) };
}
