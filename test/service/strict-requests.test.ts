import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookAnswer, WorkbookInfo } from '../../main/service/contract/workbook-api';
import { fixture, upload } from './bulk-validate-helpers';
import { openTestService, PARIS, q, type TestService } from './helpers';
import { settled } from './workbooks/workbook-helpers';

/**
 * Issue 30, finding 11 (a fuzzer's): 405 answers carried no `Allow` header; flags that are not
 * booleans were taken silently on some routes (`nowait=2` on a GET, `regex=banana`,
 * `issues=banana`); `/workstation/` bodies took optional fields of the wrong type (`name: 123`,
 * `"rows": {}`, `"rows": null`). Each is now refused alike on every route, naming what is wrong.
 */
let t: TestService;
let workbook: WorkbookInfo;

beforeAll(async () => {
  t = await openTestService({ demo: true });
  expect((await upload(t, 'strict.xlsx', fixture('line-relation-libreoffice.xlsx'), PARIS)).status).toBe(200);
  const made = await t.call('POST', '/workstation/workbooks/', { from: 'upload', file: 'strict.xlsx', hierarchy: PARIS });
  expect(made.status, made.text).toBe(202);
  workbook = await settled(t, (made.body as WorkbookAnswer).workbook.id);
});
afterAll(() => t.close());

describe('405 says what the path takes', () => {
  it('answers every method a path does not take with Allow listing those it does', async () => {
    const pkid = (await t.get(`/api/data/Countries/${q('sys', '&limit=1')}`)).body.resources[0].meta.pkid as string;
    const cases: [string, string, string][] = [
      ['PATCH', `/api/data/Countries/${q('sys')}`, 'GET, POST, DELETE'],
      ['POST', `/api/data/Countries/${pkid}/`, 'GET, PUT, DELETE'],
      ['POST', '/api/data/Countries/help/', 'GET'],
      ['POST', `/api/data/Countries/add/${q('sys')}`, 'GET'],
      ['PUT', '/api/tool/Transaction/', 'GET'],
      ['PUT', `/api/tool/Search/${q('sys')}`, 'GET, POST'],
      ['GET', `/api/tool/BulkLoad/${q('sys')}`, 'POST'],
      ['GET', `/api/uploadfiles/${q('sys')}`, 'POST'],
      ['DELETE', '/api/whoami/', 'GET'],
      ['GET', '/api/export/export_data/?url=/api/tool/Search/', 'POST'],
      ['GET', `/api/data/Countries/${pkid}/+tag/`, 'PATCH'],
      ['GET', '/logout/', 'POST'],
      ['PUT', '/workstation/workbooks/', 'GET, POST'],
      ['PUT', `/workstation/workbooks/${workbook.id}/`, 'GET, DELETE'],
      ['GET', `/workstation/workbooks/${workbook.id}/edits/`, 'POST'],
      ['POST', `/workstation/workbooks/${workbook.id}/sheets/0/rows/`, 'GET'],
      ['PUT', '/workstation/remote-profiles/', 'GET, POST'],
      ['GET', '/workstation/viewer/', 'POST'],
      ['POST', '/workstation/models/', 'GET'],
    ];
    for (const [method, url, allow] of cases) {
      const reply = await t.call(method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(reply.status, `${method} ${url}: ${reply.text}`).toBe(405);
      expect(reply.headers.allow, `${method} ${url}`).toBe(allow);
    }
  });
});

describe('flags are true or false on every route', () => {
  it('refuses a flag that is not a boolean with 400 bad-parameter, GET or POST, /api/ or /workstation/', async () => {
    const urls: [string, string][] = [
      ['GET', `/api/data/Countries/${q('sys', '&nowait=2')}`],
      ['POST', `/api/data/Countries/${q('sys', '&nowait=2')}`],
      ['GET', `/api/data/Countries/${q('sys', '&count=maybe')}`],
      ['GET', `/workstation/workbooks/${workbook.id}/file/?issues=banana`],
      ['GET', `/workstation/workbooks/${workbook.id}/sheets/0/rows/?find=x&regex=banana`],
      ['GET', `/api/tool/Search/${q('sys', '&query=Paris&hierarchy_all=sometimes')}`],
    ];
    for (const [method, url] of urls) {
      const reply = await t.call(method, url, method === 'POST' ? { data: { country_name: 'Nowhere' } } : undefined);
      expect(reply.status, `${method} ${url}: ${reply.text}`).toBe(400);
      expect(reply.body.code).toBe('bad-parameter');
    }
    // The booleans themselves still work, as 1 and 0 do.
    expect((await t.get(`/workstation/workbooks/${workbook.id}/file/?issues=true`)).status).toBe(200);
    expect((await t.get(`/workstation/workbooks/${workbook.id}/sheets/0/rows/?find=%5C%2B33&regex=1`)).status).toBe(200);
    expect((await t.get(`/api/data/Countries/${q('sys', '&nowait=true')}`)).status).toBe(202);
  });
});

describe('list filters are what the published description says', () => {
  it('refuses a filter_condition outside equals, contains, startswith, endswith even without a filter_field (found by npm run fuzz)', async () => {
    for (const query of ['filter_condition=x-y', 'filter_field=pattern&filter_text=1&filter_condition=contains&filter_condition=near']) {
      const reply = await t.call('GET', `/api/device/cucm/Line/?hierarchy=sys&${query}`);
      expect(reply.status, `${query}: ${reply.text}`).toBe(400);
      expect(reply.body).toMatchObject({ code: 'bad-parameter', message: expect.stringContaining('filter_condition must be one of') });
    }
    expect((await t.call('GET', '/api/device/cucm/Line/?hierarchy=sys&filter_condition=contains')).status).toBe(200);
  });
});

describe('/workstation/ bodies check the types of their optional fields', () => {
  it('refuses name: 123 or {} on a new workbook and a viewer, naming the field', async () => {
    for (const name of [123, {}]) {
      const book = await t.call('POST', '/workstation/workbooks/', { from: 'upload', file: 'strict.xlsx', hierarchy: PARIS, name });
      expect(book.status, book.text).toBe(400);
      expect(book.body).toMatchObject({ code: 'validation-failed', details: [{ field: 'name' }] });
      const viewer = await t.call('POST', '/workstation/viewer/', { from: 'upload', file: 'strict.xlsx', hierarchy: PARIS, name });
      expect(viewer.status, viewer.text).toBe(400);
      expect(viewer.body).toMatchObject({ code: 'validation-failed', details: [{ field: 'name' }] });
    }
  });

  it('refuses "rows": {} in an insert_rows edit and "rows": null on a load, changing nothing', async () => {
    const current = await settled(t, workbook.id);
    const inserted = await t.call('POST', `/workstation/workbooks/${workbook.id}/edits/`, {
      revision: current.revision,
      edit: { op: 'insert_rows', sheet: 0, at: 0, rows: {} },
    });
    expect(inserted.status, inserted.text).toBe(400);
    expect(inserted.body.details).toEqual([{ field: 'rows', message: 'must be a list' }]);
    const load = await t.call('POST', `/workstation/workbooks/${workbook.id}/load/`, {
      revision: current.revision,
      rows: null,
      allow_errors: true,
    });
    expect(load.status, load.text).toBe(400);
    expect(load.body).toMatchObject({ code: 'validation-failed', details: [{ field: 'rows' }] });
    const after = await settled(t, workbook.id);
    expect([after.revision, after.state]).toEqual([current.revision, current.state]);
  });
});
