import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactWorkbook, upload } from './bulk-validate-helpers';
import { ACME, LONDON, openTestService, PARIS, q, type Reply, type TestService } from './helpers';

/**
 * Every route, times each role, times a hierarchy inside, above and beside the caller's node
 * (users at Paris; Acme above; London beside). Each cell asserts its status; each denied cell
 * also proves that nothing at all was stored, not even a transaction record.
 */
type Role = 'admin' | 'operator' | 'readonly';
type Place = 'inside' | 'above' | 'beside';
type Kind = 'open' | 'read' | 'read-up' | 'write' | 'export';

const ROLES: Role[] = ['admin', 'operator', 'readonly'];
const PLACES: Record<Place, string> = { inside: PARIS, above: ACME, beside: LONDON };
const PASSWORD = 'matrix-password-1';

let t: TestService;
const country: Record<Place, { pkid: string; transactionId: string; logId: string }> = {} as never;
const nodePkid: Record<Place, string> = {} as never;
let serial = 0;

const as = (role: Role): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`matrix-${role}:${PASSWORD}`).toString('base64')}`,
});

async function throwaway(place: Place): Promise<string> {
  serial += 1;
  const code = `Z${String.fromCharCode(65 + (serial % 26))}`;
  const reply = await t.call('POST', `/api/data/Countries/${q(PLACES[place])}`, {
    data: { country_name: `Throwaway ${serial}`, iso_code: code },
  });
  if (reply.status !== 200) throw new Error(`setup: ${reply.text}`);
  return reply.body.pkid;
}

interface Route {
  name: string;
  kind: Kind;
  /** Runs before the snapshot: what the call needs that must not count as its change. */
  prepare?: (place: Place) => Promise<string>;
  call: (role: Role, place: Place, prepared: string) => Promise<Reply>;
}

const path = (place: Place): string => PLACES[place];
const ROUTES: Route[] = [
  { name: 'list', kind: 'read', call: (r, p) => t.get(`/api/data/Countries/${q(path(p))}`, as(r)) },
  {
    name: 'list with schema',
    kind: 'read',
    call: (r, p) => t.get(`/api/data/Countries/${q(path(p), '&schema=true&schema_rules=true')}`, as(r)),
  },
  { name: 'list up', kind: 'read-up', call: (r, p) => t.get(`/api/data/Countries/${q(path(p), '&traversal=up')}`, as(r)) },
  { name: 'instance', kind: 'read', call: (r, p) => t.get(`/api/data/Countries/${country[p].pkid}/`, as(r)) },
  { name: 'instance up', kind: 'read-up', call: (r, p) => t.get(`/api/data/Countries/${country[p].pkid}/?traversal=up`, as(r)) },
  { name: 'hierarchy node', kind: 'read', call: (r, p) => t.get(`/api/data/HierarchyNode/${nodePkid[p]}/`, as(r)) },
  { name: 'add form', kind: 'read', call: (r, p) => t.get(`/api/data/Countries/add/${q(path(p))}`, as(r)) },
  { name: 'help', kind: 'open', call: (r) => t.get('/api/data/Countries/help/', as(r)) },
  {
    name: 'search',
    kind: 'read',
    call: (r, p) => t.get(`/api/tool/Search/?filter_hierarchy=${encodeURIComponent(path(p))}&query=data/Countries`, as(r)),
  },
  {
    name: 'search by POST',
    kind: 'read',
    call: (r, p) =>
      t.call(
        'POST',
        `/api/tool/Search/?filter_hierarchy=${encodeURIComponent(path(p))}`,
        { query: 'data/Countries with country_name like land' },
        as(r),
      ),
  },
  {
    name: 'search up',
    kind: 'read-up',
    call: (r, p) =>
      t.call(
        'POST',
        `/api/tool/Search/?filter_hierarchy=${encodeURIComponent(path(p))}`,
        { query: 'data/Countries', hierarchy_paths: true },
        as(r),
      ),
  },
  {
    name: 'upload',
    kind: 'write',
    call: (r, p) => upload(t, `matrix-${(serial += 1)}.xlsx`, Buffer.from('not looked at yet'), path(p), as(r)),
  },
  {
    name: 'validate a workbook',
    kind: 'write',
    call: (r, p) => t.call('POST', `/api/tool/BulkLoad/${q(path(p), '&method=validate')}`, { bulkload_file: 'matrix.xlsx' }, as(r)),
  },
  {
    name: 'bulk load',
    kind: 'write',
    call: (r, p) =>
      t.call(
        'POST',
        `/api/tool/BulkLoad/${q(path(p), '&method=bulkload_spreadsheet')}`,
        { bulkload_file: 'matrix.xlsx', execute_immediately: true },
        as(r),
      ),
  },
  {
    name: 'bulk-load template',
    kind: 'export',
    call: (r, p) => t.get(`/api/data/Countries/export_bulkload_template/${q(path(p))}`, as(r)),
  },
  { name: 'export one', kind: 'export', call: (r, p) => t.get(`/api/data/Countries/${country[p].pkid}/export/?export_format=xlsx`, as(r)) },
  { name: 'export many', kind: 'export', call: (r, p) => t.call('POST', `/api/data/Countries/export/${q(path(p))}`, {}, as(r)) },
  {
    name: 'export a search',
    kind: 'export',
    call: (r, p) =>
      t.call(
        'POST',
        `/api/export/export_data/?url=/api/tool/Search/&filter_hierarchy=${encodeURIComponent(path(p))}`,
        { query: 'data/Countries', export_data_type: 'json' },
        as(r),
      ),
  },
  { name: 'export data types', kind: 'open', call: (r) => t.get('/api/view/ExportData/add', as(r)) },
  { name: 'who am I', kind: 'open', call: (r) => t.get('/api/whoami/', as(r)) },
  { name: 'transaction list', kind: 'read', call: (r, p) => t.get(`/api/tool/Transaction/${q(path(p))}`, as(r)) },
  { name: 'transaction', kind: 'read', call: (r, p) => t.get(`/api/tool/Transaction/${country[p].transactionId}/`, as(r)) },
  {
    name: 'transaction log entry',
    kind: 'read',
    call: (r, p) => t.get(`/api/tool/Transaction/${country[p].transactionId}/log/?log_id=${country[p].logId}`, as(r)),
  },
  { name: 'transaction poll', kind: 'read', call: (r, p) => t.get(`/api/tool/Transaction/${country[p].transactionId}/poll/`, as(r)) },
  {
    name: 'create',
    kind: 'write',
    call: (r, p) => {
      serial += 1;
      return t.call(
        'POST',
        `/api/data/Countries/${q(path(p))}`,
        { data: { country_name: `Made ${serial}`, iso_code: `Y${String.fromCharCode(65 + (serial % 26))}` } },
        as(r),
      );
    },
  },
  {
    name: 'create node',
    kind: 'write',
    call: (r, p) =>
      t.call('POST', `/api/data/HierarchyNode/${q(path(p))}`, { data: { name: `N${(serial += 1)}`, node_type: 'Site' } }, as(r)),
  },
  {
    name: 'modify',
    kind: 'write',
    call: (r, p) =>
      t.call('PUT', `/api/data/Countries/${country[p].pkid}/`, { data: { international_prefix: String(1000 + (serial += 1)) } }, as(r)),
  },
  {
    name: 'delete',
    kind: 'write',
    prepare: throwaway,
    call: (r, _p, pkid) => t.call('DELETE', `/api/data/Countries/${pkid}/`, undefined, as(r)),
  },
  {
    name: 'delete by hrefs',
    kind: 'write',
    prepare: throwaway,
    call: (r, p, pkid) => t.call('DELETE', `/api/data/Countries/${q(path(p))}`, { hrefs: [`/api/data/Countries/${pkid}/`] }, as(r)),
  },
  {
    name: 'tag',
    kind: 'write',
    call: (r, p) => t.call('PATCH', `/api/data/Countries/${country[p].pkid}/+tag/?tag=t${(serial += 1)}`, undefined, as(r)),
  },
  {
    name: 'version tag',
    kind: 'write',
    call: (r, p) =>
      t.call('PATCH', `/api/data/Countries/${country[p].pkid}/+tag_version/?version_tag=${(serial += 1)}.0`, undefined, as(r)),
  },
  {
    name: 'create user of own role',
    kind: 'write',
    call: (r, p) =>
      t.call('POST', `/api/data/User/${q(path(p))}`, { data: { username: `made.${(serial += 1)}`, role: r, password: PASSWORD } }, as(r)),
  },
];

/** Everything a call could store: resources, transactions, and uploaded files and their rows. */
const storeState = (): string =>
  `${t.snapshot({ withTransactions: true })} ${JSON.stringify(t.service.store.db.prepare('SELECT id FROM uploads ORDER BY id').all())} ${readdirSync(t.service.store.uploads.folder).length}`;

function expected(kind: Kind, role: Role, place: Place): number {
  if (kind === 'open') return 200;
  if (kind === 'export') return role !== 'readonly' && place === 'inside' ? 200 : 403;
  if (kind === 'read') return place === 'inside' ? 200 : 403;
  if (kind === 'read-up') return place === 'beside' ? 403 : 200;
  return role === 'admin' && place === 'inside' ? 200 : 403;
}

beforeAll(async () => {
  t = await openTestService({ demo: true });
  for (const role of ROLES) {
    const made = await t.call('POST', `/api/data/User/${q(PARIS)}`, { data: { username: `matrix-${role}`, role, password: PASSWORD } });
    if (made.status !== 200) throw new Error(`setup: ${made.text}`);
  }
  // One workbook at Paris, sent by the Paris admin (uploads belong to their sender): one line it may load.
  const workbook = await compactWorkbook('LineRelation', ['# Hierarchy Node', '# Directory Number'], [[PARIS, '+33140001077']]);
  if ((await upload(t, 'matrix.xlsx', workbook, PARIS, as('admin'))).status !== 200) throw new Error('setup: upload');
  for (const [place, hierarchy] of Object.entries(PLACES) as [Place, string][]) {
    const made = await t.call('POST', `/api/data/Countries/${q(hierarchy)}`, {
      data: { country_name: `Land of ${place}`, iso_code: place.slice(0, 2).toUpperCase() },
    });
    const tx = await t.get(`/api/tool/Transaction/${made.body.transaction_id}/`);
    country[place] = { pkid: made.body.pkid, transactionId: made.body.transaction_id, logId: tx.body.data.log[0].log_id };
    const parent = hierarchy.slice(0, hierarchy.lastIndexOf('.'));
    const name = hierarchy.slice(hierarchy.lastIndexOf('.') + 1);
    const nodes = await t.get(`/api/data/HierarchyNode/${q(parent, `&filter_field=name&filter_condition=equals&filter_text=${name}`)}`);
    nodePkid[place] = nodes.body.resources[0].meta.pkid;
  }
});
afterAll(() => t.close());

describe('access matrix', () => {
  it('gives every route, role and place its status, and denied calls change nothing', async () => {
    const failures: string[] = [];
    let cells = 0;
    for (const route of ROUTES) {
      for (const role of ROLES) {
        for (const place of Object.keys(PLACES) as Place[]) {
          cells += 1;
          const prepared = route.prepare ? await route.prepare(place) : '';
          const before = storeState();
          const reply = await route.call(role, place, prepared);
          await t.service.idle();
          const want = expected(route.kind, role, place);
          if (reply.status !== want)
            failures.push(`${route.name} as ${role} ${place}: ${reply.status}, expected ${want}: ${reply.text.slice(0, 160)}`);
          if (want === 403) {
            if (!/^Permission Denied/.test(reply.body?.message ?? ''))
              failures.push(`${route.name} as ${role} ${place}: message ${reply.body?.message}`);
            if (storeState() !== before) failures.push(`${route.name} as ${role} ${place}: the store changed`);
          }
        }
      }
    }
    console.log(`[access-matrix] ${ROUTES.length} routes x ${ROLES.length} roles x ${Object.keys(PLACES).length} places = ${cells} cells`);
    expect(failures).toEqual([]);
    // 207 calls, each with two fingerprints of the whole store: slow machines need the room.
  }, 120_000);

  it('never lets a user make or raise a user above its own role', async () => {
    const helperAdmin = await t.call('POST', `/api/data/User/${q(PARIS)}`, {
      data: { username: 'matrix-site-admin', role: 'admin', password: PASSWORD },
    });
    expect(helperAdmin.status).toBe(200);
    const siteAdmin = { authorization: `Basic ${Buffer.from(`matrix-site-admin:${PASSWORD}`).toString('base64')}` };
    const operator = await t.get(
      `/api/data/User/${q(PARIS, '&filter_field=username&filter_condition=equals&filter_text=matrix-operator')}`,
    );
    const raised = await t.call(
      'PUT',
      `/api/data/User/${operator.body.resources[0].meta.pkid}/`,
      { data: { role: 'admin' } },
      as('operator'),
    );
    expect(raised.status).toBe(403);
    const sysAdmin = await t.get(
      `/api/data/User/${q('sys', '&traversal=local&filter_field=username&filter_condition=equals&filter_text=admin')}`,
    );
    const touched = await t.call(
      'PUT',
      `/api/data/User/${sysAdmin.body.resources[0].meta.pkid}/`,
      { data: { password: 'taken-over-1' } },
      siteAdmin,
    );
    expect(touched.status).toBe(403);
    const after = await t.get(`/api/data/User/${operator.body.resources[0].meta.pkid}/`);
    expect(after.body.data.role).toBe('operator');
    expect((await t.get(`/api/data/Countries/${q('sys')}`)).status).toBe(200);
  });
});
