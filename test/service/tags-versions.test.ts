import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFile } from '../../main/service';
import { openDatabase } from '../../main/service/store/db';
import { openTestService, PARIS, q, type TestService } from './helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

async function aLine(): Promise<string> {
  const list = await t.get(`/api/relation/LineRelation/${q(PARIS, '&limit=1')}`);
  return list.body.resources[0].meta.href;
}

describe('tags', () => {
  it('adds, clears one and clears all, in the order given, and shows them in meta', async () => {
    const href = await aLine();
    const added = await t.call('PATCH', `${href}+tag/?tag=floor-2&tag=vip&tag=floor-2`);
    expect(added.status).toBe(200);
    expect(added.body.tags).toEqual(['floor-2', 'vip']);
    expect(added.body.warnings).toBeUndefined();
    expect((await t.get(href)).body.meta.tags).toEqual(['floor-2', 'vip']);
    const list = await t.get(`/api/relation/LineRelation/${q(PARIS, '&limit=1')}`);
    expect(list.body.resources[0].meta.tags).toEqual(['floor-2', 'vip']);
    const cleared = await t.call('PATCH', `${href}+tag/?tag=__CLEAR_TAG__vip&tag=moved`);
    expect(cleared.body.tags).toEqual(['floor-2', 'moved']);
    const all = await t.call('PATCH', `${href}+tag/?tag=__CLEAR_ALL_TAGS__&tag=fresh`);
    expect(all.body.tags).toEqual(['fresh']);
    expect((await t.get(href)).body.meta.tags).toEqual(['fresh']);
  });

  it('stores a tag with capitals and warns that search will not find it', async () => {
    const href = await aLine();
    const reply = await t.call('PATCH', `${href}+tag/?tag=VIP`);
    expect(reply.body.tags).toContain('VIP');
    expect(reply.body.warnings).toEqual([expect.stringMatching(/'VIP' has capital letters: it is stored, but search will not find it/)]);
  });

  it('sets and clears the version tag', async () => {
    const href = await aLine();
    expect((await t.call('PATCH', `${href}+tag_version/?version_tag=2.1`)).body.version_tag).toBe('2.1');
    expect((await t.get(href)).body.meta.version_tag).toBe('2.1');
    await t.call('PATCH', `${href}+tag_version/?version_tag=`);
    expect((await t.get(href)).body.meta.version_tag).toBeUndefined();
  });

  it('refuses a tag call without tags, a bad tag, and GET, changing nothing', async () => {
    const href = await aLine();
    const before = t.snapshot();
    expect((await t.call('PATCH', `${href}+tag/`)).status).toBe(400);
    expect((await t.call('PATCH', `${href}+tag/?tag=a,b`)).status).toBe(400);
    expect((await t.call('PATCH', `${href}+tag_version/`)).status).toBe(400);
    expect((await t.get(`${href}+tag/?tag=x`)).status).toBe(405);
    expect(t.snapshot()).toBe(before);
  });
});

const MAPPING: [string, string][] = [
  ['10.1.2', '10.0'],
  ['10.6.1', '10.5'],
  ['10.6.2', '10.5'],
  ['10.6.3', '10.5'],
  ['11.5.1', '11.5'],
  ['11.5.2', '11.5'],
  ['11.5.3', '11.5'],
];

describe('API versions below release 21.1 (default 20.1.1)', () => {
  it.each(MAPPING)('api_version %s gives device schema version %s, in schema and instance meta', async (apiVersion, schemaVersion) => {
    const schema = await t.get(`/api/device/cucm/Line/${q(PARIS, `&schema=true&schema_rules=true&api_version=${apiVersion}`)}`);
    expect(schema.body.meta.schema_version).toBe(schemaVersion);
    const line = schema.body.resources[0];
    expect(line.meta.schema_version).toBe(schemaVersion);
    const viaHeader = await t.get(`${line.meta.href}`, { 'x-version': apiVersion });
    expect(viaHeader.body.meta.schema_version).toBe(schemaVersion);
    const viaParam = await t.get(`${line.meta.href}?api_version=${apiVersion}`);
    expect(viaParam.body.meta.schema_version).toBe(schemaVersion);
  });

  it('defaults to the latest mapping, and leaves non-device models their own version', async () => {
    const line = await t.get(`/api/device/cucm/Phone/${q(PARIS, '&limit=1')}`);
    expect(line.body.resources[0].meta.schema_version).toBe('11.5');
    const relation = await t.get(`/api/relation/LineRelation/${q(PARIS, '&schema=true&api_version=10.1.2&limit=1')}`);
    expect(relation.body.meta.schema_version).toBe('0.2.2');
  });

  it('refuses an unknown version with 400', async () => {
    const reply = await t.get(`/api/device/cucm/Line/${q(PARIS, '&api_version=9.9.9')}`);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('unsupported-api-version');
    expect((await t.get(`/api/device/cucm/Line/${q(PARIS)}`, { 'x-version': '12.0' })).body.code).toBe('unsupported-api-version');
  });
});

describe('API versions from release 21.1', () => {
  it('refuses api_version and X-Version, and answers without them', async () => {
    const later = await openTestService({ release: '21.1' });
    try {
      const param = await later.get(`/api/device/cucm/Line/${q('sys', '&api_version=11.5.1')}`);
      expect(param.status).toBe(400);
      expect(param.body.code).toBe('api-version-not-supported');
      const headerOnly = await later.get(`/api/device/cucm/Line/${q('sys')}`, { 'x-version': '11.5.1' });
      expect(headerOnly.body.code).toBe('api-version-not-supported');
      expect((await later.get(`/api/device/cucm/Line/${q('sys', '&schema=true')}`)).body.meta.schema_version).toBe('11.5');
    } finally {
      later.close();
    }
  });
});

describe('device models: cached and device copies', () => {
  it('reads the cache by default, the device with cached=false, and refreshes the cache from it', async () => {
    const list = await t.get(`/api/device/cucm/Phone/${q(PARIS, '&limit=1')}`);
    const href = list.body.resources[0].meta.href;
    const pkid = list.body.resources[0].meta.pkid;
    const first = await t.get(href);
    expect(first.body.meta.cached).toBe(true);
    // The call manager changed the phone behind the workstation's back.
    const other = openDatabase(workspaceFile(t.dataDir));
    other
      .prepare("UPDATE instances SET device_data = json_set(device_data, '$.description', 'changed on the device') WHERE pkid = ?")
      .run(pkid);
    other.close();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await t.get(href)).body.data.description).toBe(first.body.data.description);
    const fromDevice = await t.get(`${href}?cached=false`);
    expect(fromDevice.body.meta.cached).toBe(false);
    expect(fromDevice.body.data.description).toBe('changed on the device');
    expect((await t.get(href)).body.data.description).toBe('changed on the device');
    // A second change on the device: the same cached=false read must reach the device again.
    const again = openDatabase(workspaceFile(t.dataDir));
    again.prepare("UPDATE instances SET device_data = json_set(device_data, '$.description', 'changed again') WHERE pkid = ?").run(pkid);
    again.close();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await t.get(`${href}?cached=false`)).body.data.description).toBe('changed again');
  });
});
