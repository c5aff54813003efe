import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkstationModel, WorkstationModelList } from '../../main/service/contract/workstation-api';
import { ALL_MODELS, requireModel } from '../../main/service/models/registry';
import { LONDON, openTestService, PARIS, q, type TestService } from './helpers';

const PASSWORD = 'models-password-1';
const basic = (username: string): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`${username}:${PASSWORD}`).toString('base64')}`,
});
const URL = '/workstation/models/';

let t: TestService;

beforeAll(async () => {
  t = await openTestService({ demo: true });
  for (const [username, role, hierarchy] of [
    ['models-london', 'admin', LONDON],
    ['models-paris-ro', 'readonly', PARIS],
  ] as const) {
    const made = await t.call('POST', `/api/data/User/${q(hierarchy)}`, { data: { username, role, password: PASSWORD } });
    if (made.status !== 200) throw new Error(`setup: ${made.text}`);
  }
});

afterAll(() => t.close());

const byType = (list: WorkstationModelList, modelType: string): WorkstationModel | undefined =>
  list.models.find((model) => model.model_type === modelType);

describe('GET /workstation/models/', () => {
  it('answers the models a Paris node may hold, with the registry’s titles, columns, keys and actions', async () => {
    const reply = await t.get(`${URL}${q(PARIS)}`);
    expect(reply.status).toBe(200);
    expect(String(reply.headers['content-type'])).toMatch(/^application\/json; charset=utf-8/);
    const list = reply.body as WorkstationModelList;
    const paris = t.service.store.nodes.getByPath(PARIS);
    expect(list.hierarchy).toEqual({ requested: PARIS, pkid: paris?.pkid, path: PARIS, node_type: 'Site' });
    expect(list.workspace).toBe('Local');

    const line = byType(list, 'relation/LineRelation');
    const lineDef = requireModel('relation/LineRelation');
    expect(line).toEqual({
      model_type: 'relation/LineRelation',
      title: lineDef.title,
      description: lineDef.description,
      kind: 'relation',
      summary_attrs: lineDef.summaryAttrs.map((name) => ({ name, title: lineDef.fields[name].title })),
      business_key: { hierarchy: lineDef.businessKey.hierarchy, fields: lineDef.businessKey.fields },
      actions: ['add', 'modify', 'delete', 'export', 'bulk_load'],
    });
    const phone = byType(list, 'device/cucm/Phone');
    expect(phone?.title).toBe(requireModel('device/cucm/Phone').title);
    expect(phone?.kind).toBe('device');
    expect(byType(list, 'data/User')?.kind).toBe('data');

    // Every model that can be created through the API, and nothing else: no tool/ or view/ model.
    const creatable = ALL_MODELS.filter((model) => model.storage === 'instances' && model.actions.some((a) => a.name === 'create'));
    expect(list.models.map((model) => model.model_type).sort()).toEqual(creatable.map((model) => model.modelType).sort());
    for (const model of list.models) {
      expect(model.title).toBe(requireModel(model.model_type).title);
      expect(model.model_type).not.toMatch(/^(tool|view)\//);
    }
    // Relation models first, then device, then data.
    const kinds = list.models.map((model) => model.kind);
    expect(kinds).toEqual([...kinds].sort((a, b) => ['relation', 'device', 'data'].indexOf(a) - ['relation', 'device', 'data'].indexOf(b)));
  });

  it('takes a node pkid as well as a dot path, without a trailing slash too', async () => {
    const pkid = t.service.store.nodes.getByPath(PARIS)?.pkid as string;
    const reply = await t.get(`/workstation/models${q(pkid)}`);
    expect(reply.status).toBe(200);
    expect((reply.body as WorkstationModelList).hierarchy).toMatchObject({ requested: pkid, pkid, path: PARIS });
  });

  it('lets a readonly user of the node read it', async () => {
    const reply = await t.get(`${URL}${q(PARIS)}`, basic('models-paris-ro'));
    expect(reply.status).toBe(200);
    expect(byType(reply.body as WorkstationModelList, 'relation/LineRelation')).toBeDefined();
  });

  it('answers 400 hierarchy-required without a hierarchy', async () => {
    for (const url of [URL, `${URL}?hierarchy=`]) {
      const reply = await t.get(url);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ success: false, http_code: 400, code: 'hierarchy-required' });
    }
  });

  it('answers 403 to a user outside the node, whether the node exists or not, and 404 for an unknown node within reach', async () => {
    const beside = await t.get(`${URL}${q(PARIS)}`, basic('models-london'));
    expect(beside.status).toBe(403);
    expect(beside.body).toMatchObject({ success: false, http_code: 403, code: 'permission-denied' });
    expect(beside.text).not.toContain('Paris');
    const missingBeside = await t.get(`${URL}${q('sys.hcs.Telco.Acme.Nowhere')}`, basic('models-london'));
    expect(missingBeside.status).toBe(403);
    const above = await t.get(`${URL}${q('sys.hcs.Telco.Acme')}`, basic('models-london'));
    expect(above.status).toBe(403);
    const missingWithin = await t.get(`${URL}${q(`${LONDON}.Nowhere`)}`, basic('models-london'));
    expect(missingWithin.status).toBe(404);
    expect(missingWithin.body).toMatchObject({ code: 'hierarchy-not-found' });
    expect((await t.get(`${URL}${q(LONDON)}`, basic('models-london'))).status).toBe(200);
  });

  it('answers 401 without credentials, 405 to a write and 404 below the catalog', async () => {
    const anonymous = await t.service.handle({ method: 'GET', url: `${URL}${q(PARIS)}`, headers: {} });
    expect(anonymous.status).toBe(401);
    expect((await t.call('POST', `${URL}${q(PARIS)}`, {})).status).toBe(405);
    expect((await t.get(`${URL}relation/LineRelation/${q(PARIS)}`)).status).toBe(404);
  });
  it('answers the models the renderer tests’ fake catalog holds, exactly as that fixture gives them', async () => {
    // The fixture belongs to the renderer's (web) project: loaded by path, not by a project import.
    const fixture = '../renderer/catalog-fixtures';
    const { CATALOG_MODELS } = (await import(fixture)) as { CATALOG_MODELS: WorkstationModel[] };
    expect(CATALOG_MODELS.length).toBeGreaterThan(0);
    const list = (await t.get(`${URL}${q(PARIS)}`)).body as WorkstationModelList;
    for (const model of CATALOG_MODELS) expect(byType(list, model.model_type)).toEqual(model);
    expect(list.models.map((model) => model.model_type).filter((type) => CATALOG_MODELS.some((m) => m.model_type === type))).toEqual(
      CATALOG_MODELS.map((model) => model.model_type),
    );
  });
});
