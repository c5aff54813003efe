import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers } from '../http/serve-process';
import {
  ACME,
  PARIS,
  openLocal,
  remoteTransactionCount,
  REMOTE_PASSWORD,
  settled,
  startRemote,
  type Client,
  type LocalWorkstation,
  type Reply,
} from './remote-world';

/**
 * The whole API through the proxy of a live workspace gives what the remote gives directly:
 * a second real service (a `serve` child) plays the customer's deployment, once at release
 * 20.1.1 and once at 21.1.
 */
afterAll(cleanupServers);

const FIXTURE = readFileSync(join(__dirname, '..', 'fixtures', 'line-relation-exceljs.xlsx'));
const q = (hierarchy: string, extra = ''): string => `?hierarchy=${encodeURIComponent(hierarchy)}${extra}`;

/** What must be equal: status, JSON body (or bytes), and the headers a client reads. */
function same(proxied: Reply, direct: Reply): void {
  expect(proxied.status).toBe(direct.status);
  expect(proxied.headers.get('content-type')).toBe(direct.headers.get('content-type'));
  if (direct.body !== undefined) expect(proxied.body).toEqual(direct.body);
  else expect(proxied.bytes.equals(direct.bytes)).toBe(true);
  expect(proxied.headers.get('x-workstation-workspace')).toBe('Customer');
}

async function cellsOf(bytes: Buffer): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return book.worksheets.map((sheet) => sheet.getSheetValues());
}

describe.each(['20.1.1', '21.1'])('a live workspace on a remote at release %s', (release) => {
  let local: LocalWorkstation;
  let direct: Client;
  let live: Client;
  let serial = 0;
  const nextPattern = (): string => `+3314009${release === '21.1' ? '5' : '4'}${String((serial += 1)).padStart(2, '0')}`;

  beforeAll(async () => {
    const started = await startRemote(release);
    direct = started.direct;
    local = await openLocal();
    await local.addProfile({ name: 'Customer', base_url: started.remote.url, username: 'admin', password: REMOTE_PASSWORD });
    live = local.live('Customer');
  }, 60_000);
  afterAll(async () => {
    await local?.close();
  });

  it('answers lists (paging, filters, Range, traversal) as the remote does', async () => {
    for (const path of [
      `/api/relation/LineRelation/${q(ACME, '&limit=7&order_by=pattern&direction=desc')}`,
      `/api/relation/Subscriber/${q(PARIS, '&filter_field=lastname&filter_condition=startswith&filter_text=M')}`,
      `/api/data/HierarchyNode/${q('sys', '&traversal=down&limit=20')}`,
      `/api/data/InternalNumberInventory/${q(ACME, '&count=false&limit=3')}`,
    ]) {
      same(await live.get(path), await direct.get(path));
    }
    const ranged = `/api/device/cucm/Phone/${q(PARIS)}`;
    const [viaProxy, straight] = [
      await live.get(ranged, { headers: { range: 'items=2-5' } }),
      await direct.get(ranged, { headers: { range: 'items=2-5' } }),
    ];
    same(viaProxy, straight);
    expect(viaProxy.headers.get('content-range')).toBe(straight.headers.get('content-range'));
    expect(viaProxy.headers.get('content-range')).toMatch(/^items 2-5\/\d+$/);
  });

  it('answers instances, forms, schemas and help pages as the remote does', async () => {
    const list = await direct.get(`/api/relation/LineRelation/${q(PARIS, '&limit=1')}`);
    const pkid = list.body.resources[0].meta.pkid as string;
    for (const path of [
      `/api/relation/LineRelation/${pkid}/`,
      `/api/relation/LineRelation/add/${q(ACME, '&policy_name=Acme%20Line%20Form&schema=true')}`,
      `/api/relation/LineRelation/${q(ACME, '&schema=true&schema_rules=true&limit=1')}`,
      '/api/relation/LineRelation/help/',
      `/api/data/HierarchyNode/${q('sys.nowhere')}`,
    ]) {
      same(await live.get(path), await direct.get(path));
    }
  });

  it("passes the remote's faults through unchanged", async () => {
    const path = `/api/relation/LineRelation/${q(PARIS)}`;
    const body = { data: { alertingName: 'No pattern' } };
    const [viaProxy, straight] = [await live.call('POST', path, { json: body }), await direct.call('POST', path, { json: body })];
    expect(viaProxy.status).toBe(400);
    same(viaProxy, straight);
  });

  it('handles api_version as the release demands: passed below 21.1, dropped with a note from 21.1', async () => {
    const list = await direct.get(`/api/device/cucm/Line/${q(PARIS, '&limit=1')}`);
    const path = `/api/device/cucm/Line/${list.body.resources[0].meta.pkid as string}/?api_version=10.6.1`;
    const straight = await direct.get(path);
    if (release === '21.1') {
      // Release not entered nor detected yet: the proxy cannot know, and the remote's refusal passes through.
      same(await live.get(path), straight);
      const tested = await local.admin.call('POST', '/workstation/remote-profiles/Customer/test/');
      expect(tested.body).toMatchObject({ success: true, verdict: 'ok', release: { detected: '21.1-or-later' } });
    }
    const viaProxy = await live.get(path);
    expect(viaProxy.status).toBe(200);
    if (release === '21.1') {
      expect(straight.body.code).toBe('api-version-not-supported');
      expect(viaProxy.headers.get('x-workstation-note')).toMatch(/api_version and X-Version were not sent/);
      expect(viaProxy.body.meta.schema_version).not.toBe('10.5');
      const header = await live.get(path.split('?')[0], { headers: { 'x-version': '11.5.1' } });
      expect(header.status).toBe(200);
    } else {
      same(viaProxy, straight);
      expect(viaProxy.body.meta.schema_version).toBe('10.5');
      expect(viaProxy.headers.get('x-workstation-note')).toBeNull();
    }
  });

  it('makes writes once on the remote, with and without nowait, and reads their transactions and logs as the remote does', async () => {
    const before = await remoteTransactionCount(direct);
    const made = await live.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, {
      json: { data: { pattern: nextPattern(), alertingName: 'Proxy Sync' } },
    });
    expect(made.status).toBe(200);
    expect(made.body.success).toBe(true);
    same(
      await live.get(`/api/relation/LineRelation/${made.body.pkid as string}/`),
      await direct.get(`/api/relation/LineRelation/${made.body.pkid as string}/`),
    );
    const queued = await live.call('POST', `/api/relation/LineRelation/${q(PARIS, '&nowait=true')}`, {
      json: { data: { pattern: nextPattern(), alertingName: 'Proxy Async' } },
    });
    expect(queued.status).toBe(202);
    const finished = await settled(live, queued.body.transaction_id as string);
    expect(finished.body.data.status).toBe('Success');
    const txPath = `/api/tool/Transaction/${queued.body.transaction_id as string}/`;
    same(await live.get(txPath), await direct.get(txPath));
    const logId = finished.body.data.log[0].log_id as string;
    same(await live.get(`${txPath}log/?log_id=${logId}`), await direct.get(`${txPath}log/?log_id=${logId}`));
    same(await live.get(`${txPath}poll/`), await direct.get(`${txPath}poll/`));
    const listPath = `/api/tool/Transaction/${q(PARIS, '&limit=5')}`;
    same(await live.get(listPath), await direct.get(listPath));
    const changed = await live.call('PUT', `/api/relation/LineRelation/${made.body.pkid as string}/`, {
      json: { data: { alertingName: 'Proxy Changed' } },
    });
    expect(changed.status).toBe(200);
    expect((await direct.get(`/api/relation/LineRelation/${made.body.pkid as string}/`)).body.data.alertingName).toBe('Proxy Changed');
    const removed = await live.call('DELETE', `/api/relation/LineRelation/${made.body.pkid as string}/`);
    expect(removed.status).toBe(200);
    expect((await direct.get(`/api/relation/LineRelation/${made.body.pkid as string}/`)).status).toBe(404);
    expect(await remoteTransactionCount(direct)).toBe(before + 4);
  });

  it('tags and version-tags on the remote, and searches as the remote does', async () => {
    const list = await direct.get(`/api/relation/LineRelation/${q(PARIS, '&limit=1&skip=3')}`);
    const pkid = list.body.resources[0].meta.pkid as string;
    const tagged = await live.call('PATCH', `/api/relation/LineRelation/${pkid}/+tag/?tag=proxied&tag=live`);
    expect(tagged.status).toBe(200);
    expect((await live.call('PATCH', `/api/relation/LineRelation/${pkid}/+tag_version/?version_tag=2.1`)).status).toBe(200);
    const read = await direct.get(`/api/relation/LineRelation/${pkid}/`);
    expect(read.body.meta.tags).toEqual(expect.arrayContaining(['proxied', 'live']));
    expect(read.body.meta.version_tag).toBe('2.1');
    const query = encodeURIComponent('relation/LineRelation with alertingName like martin');
    const searchPath = `/api/tool/Search/${q(ACME, `&query=${query}`)}`;
    same(await live.get(searchPath), await direct.get(searchPath));
    const posted = { query: 'relation/LineRelation with pattern startswith +3314', hierarchy_shallow: false };
    same(
      await live.call('POST', `/api/tool/Search/${q(PARIS)}`, { json: posted }),
      await direct.call('POST', `/api/tool/Search/${q(PARIS)}`, { json: posted }),
    );
  });

  it('passes uploads, validation and a bulk load through, and the remote runs the load once', async () => {
    const form = new FormData();
    form.append('uploadedfile', new Blob([FIXTURE]), 'proxied-lines.xlsx');
    const uploaded = await live.call('POST', `/api/uploadfiles/${q(PARIS)}`, { form });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.uploadedfiles[0].name).toBe('proxied-lines.xlsx');
    const validatePath = `/api/tool/BulkLoad/${q(PARIS, '&method=validate')}`;
    const validation = await live.call('POST', validatePath, { json: { bulkload_file: 'proxied-lines.xlsx' } });
    same(validation, await direct.call('POST', validatePath, { json: { bulkload_file: 'proxied-lines.xlsx' } }));
    const before = await remoteTransactionCount(direct);
    const load = await live.call('POST', `/api/tool/BulkLoad/${q(PARIS, '&method=bulkload_spreadsheet&nowait=true')}`, {
      json: { bulkload_file: 'proxied-lines.xlsx', execute_immediately: true },
    });
    expect(load.status).toBe(202);
    const done = await settled(live, load.body.transaction_id as string);
    expect(done.body.data.detail).toMatch(/succeeded from \[ 1 \] sheet in proxied-lines\.xlsx/);
    same(
      await live.get(`/api/tool/Transaction/${load.body.transaction_id as string}/`),
      await direct.get(`/api/tool/Transaction/${load.body.transaction_id as string}/`),
    );
    expect(await remoteTransactionCount(direct)).toBe(before + 1);
  });

  it("streams xlsx exports through: the same file name, type and cells as the remote's own export", async () => {
    const list = await direct.get(`/api/relation/LineRelation/${q(PARIS, '&limit=3')}`);
    const pkid = list.body.resources[0].meta.pkid as string;
    const path = `/api/relation/LineRelation/${pkid}/export/${q(PARIS, '&export_format=xlsx')}`;
    const [viaProxy, straight] = [await live.get(path), await direct.get(path)];
    expect(viaProxy.status).toBe(200);
    expect(viaProxy.headers.get('content-type')).toBe(straight.headers.get('content-type'));
    expect(viaProxy.headers.get('content-disposition')).toMatch(
      /^attachment; filename="?relation_LineRelation_exportedsheet_formatted_\d{8}_\d{6}\.xlsx/,
    );
    expect(viaProxy.bytes.subarray(0, 2).toString()).toBe('PK');
    expect(await cellsOf(viaProxy.bytes)).toEqual(await cellsOf(straight.bytes));
    const hrefs = list.body.resources.map((r: { meta: { href: string } }) => r.meta.href);
    const many = `/api/relation/LineRelation/export/${q(PARIS)}`;
    const [manyProxy, manyDirect] = [
      await live.call('POST', many, { json: { hrefs } }),
      await direct.call('POST', many, { json: { hrefs } }),
    ];
    expect(manyProxy.status).toBe(200);
    expect(await cellsOf(manyProxy.bytes)).toEqual(await cellsOf(manyDirect.bytes));
  });

  it('serves a kept export byte for byte: a search export made through the proxy, downloaded through it and directly', async () => {
    const made = await live.call('POST', `/api/export/export_data/${q(ACME, '&url=/api/tool/Search/&nowait=true')}`, {
      json: { query: 'relation/LineRelation with pattern startswith +3314', export_data_type: 'formatted' },
    });
    expect(made.status).toBe(202);
    const href = made.body.download_href as string;
    const [viaProxy, straight] = [await live.get(href), await direct.get(href)];
    expect(viaProxy.status).toBe(200);
    expect(viaProxy.bytes.length).toBeGreaterThan(1000);
    same(viaProxy, straight);
    expect(viaProxy.headers.get('content-disposition')).toBe(straight.headers.get('content-disposition'));
  });

  it("keeps its own session headers: the local CSRF token, never the remote's cookies", async () => {
    const viaProxy = await live.get(`/api/data/Countries/${q('sys')}`);
    const straight = await direct.get(`/api/data/Countries/${q('sys')}`);
    const localAnswer = await local.admin.get('/workstation/workspaces/');
    expect(viaProxy.headers.get('x-csrftoken')).toBe(localAnswer.headers.get('x-csrftoken'));
    expect(viaProxy.headers.get('x-csrftoken')).not.toBe(straight.headers.get('x-csrftoken'));
    const remoteSession = /sessionid=([^;]+)/.exec(straight.headers.getSetCookie().join('\n'))?.[1];
    const proxiedCookies = viaProxy.headers.getSetCookie().join('\n');
    expect(remoteSession).toBeDefined();
    expect(proxiedCookies).not.toContain(remoteSession ?? '-');
  });
});
