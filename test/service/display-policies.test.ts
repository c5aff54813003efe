import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME, LONDON, openTestService, PARIS, q, type Reply, type TestService } from './helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

async function post(model: string, hierarchy: string, data: unknown): Promise<Reply> {
  const reply = await t.call('POST', `/api/${model}/${q(hierarchy)}`, { data });
  expect(reply.status, reply.text).toBe(200);
  return reply;
}

const policy = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `${name} for tests`,
  target_model_type: 'relation/LineRelation',
  ...extra,
});

async function form(hierarchy: string, extra = '', model = 'relation/LineRelation'): Promise<Reply> {
  const reply = await t.get(`/api/${model}/add/${q(hierarchy, extra)}`);
  expect(reply.status, reply.text).toBe(200);
  return reply;
}

const groupTitles = (reply: Reply): string[] => reply.body.meta.field_groups.map((group: { title: string }) => group.title);

describe('Field Display Policies in add/', () => {
  it('groups, renames and hides fields with the demo policy, by name, found up the tree', async () => {
    const reply = await form(PARIS, '&policy_name=Acme%20Line%20Form');
    const { schema, meta } = reply.body;
    expect(meta.field_display_policy).toEqual({ pkid: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'Acme Line Form', hierarchy: ACME });
    expect(meta.field_groups.slice(0, 3)).toEqual([
      { title: 'Line', fields: ['pattern', 'routePartitionName', 'alertingName', 'description'] },
      { title: 'Device', fields: ['summary_device'] },
      { title: 'Forwarding', fields: ['callForwardAll', 'callForwardBusy', 'callForwardNoAnswer'] },
    ]);
    // Everything else, visible, in model order, in one trailing group.
    const other = meta.field_groups[3];
    expect(other.title).toBe('Other');
    expect(other.fields[0]).toBe('usage');
    expect(other.fields).toContain('callForwardOnFailure');
    expect(other.fields).not.toContain('patternPrecedence');
    expect(other.fields).not.toContain('pattern');
    expect(schema.properties.pattern).toMatchObject({ title: 'Directory Number', description: 'E.164 with the leading +', required: true });
    expect(schema.properties.pattern.hidden).toBeUndefined();
    expect(schema.properties.patternPrecedence).toMatchObject({ hidden: true, title: 'Pattern Precedence' });
    // The form's starting data still holds the model defaults, hidden fields included.
    expect(reply.body.data.patternPrecedence).toBe('Default');
    expect(meta.model_type).toBe('relation/LineRelation');
  });

  it('applies a policy by pkid, the same as by name', async () => {
    const list = await t.get(
      `/api/data/FieldDisplayPolicy/${q(ACME, '&filter_field=name&filter_condition=equals&filter_text=Acme%20Line%20Form')}`,
    );
    const pkid = list.body.resources[0].meta.pkid;
    const byPkid = await form(PARIS, `&policy=${pkid}`);
    const byName = await form(PARIS, '&policy_name=Acme%20Line%20Form');
    expect(byPkid.body.meta.field_display_policy.pkid).toBe(pkid);
    expect(byPkid.body).toEqual(byName.body);
  });

  it('marks read-only fields, input types, help text and defaults (nested too), and lists overrides of unknown fields', async () => {
    await post(
      'data/FieldDisplayPolicy',
      PARIS,
      policy('Locked Form', {
        groups: [{ title: 'Essentials', fields: ['alertingName', 'usage', 'callForwardAll.destination', 'pattern'] }],
        field_overrides: [
          { field: 'usage', readonly: true, input_type: 'select', default: 'Shared' },
          { field: 'alertingName', title: 'Caller ID Name', help_text: 'Shown on the called phone' },
          { field: 'callForwardAll.destination', title: 'Forward All To', default: '+33600000000' },
          { field: 'pattern', hidden: true },
          { field: 'no_such_field', title: 'Gone' },
        ],
      }),
    );
    const reply = await form(PARIS, '&policy_name=Locked%20Form');
    const { schema, data, meta } = reply.body;
    expect(schema.properties.usage).toMatchObject({ readonly: true, input_type: 'select', default: 'Shared' });
    expect(schema.properties.alertingName).toMatchObject({ title: 'Caller ID Name', description: 'Shown on the called phone' });
    expect(schema.properties.callForwardAll.properties.destination).toMatchObject({ title: 'Forward All To', default: '+33600000000' });
    // Hidden, but still required: the model, not the policy, decides what a POST needs.
    expect(schema.properties.pattern).toMatchObject({ hidden: true, required: true });
    expect(data.usage).toBe('Shared');
    expect(data.callForwardAll).toEqual({ destination: '+33600000000' });
    expect(meta.field_groups[0]).toEqual({ title: 'Essentials', fields: ['alertingName', 'usage', 'callForwardAll.destination'] });
    expect(meta.field_groups[1].title).toBe('Other');
    // Listing a nested field places its top-level field: the author chose what of it is shown.
    expect(meta.field_groups[1].fields).not.toContain('callForwardAll');
    expect(meta.field_groups[1].fields).toContain('callForwardBusy');
    expect(meta.field_groups[1].fields).not.toContain('usage');
    expect(meta.field_display_policy).toMatchObject({ name: 'Locked Form', hierarchy: PARIS, ignored_fields: ['no_such_field'] });
  });

  it('never hides a required field from a POST: the field is still enforced', async () => {
    const before = t.snapshot();
    const reply = await t.call('POST', `/api/relation/LineRelation/${q(PARIS, '&policy_name=Locked%20Form')}`, {
      data: { alertingName: 'No Number', usage: 'Device Intercom' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('validation-failed');
    expect(reply.body.details).toEqual([{ field: 'pattern', message: 'Directory Number (pattern) is required' }]);
    expect(t.snapshot()).toBe(before);
  });
});

describe('the default policy', () => {
  it('leaves the plain form when no policy is named and none is called default', async () => {
    const reply = await form(PARIS);
    expect(reply.body.meta.field_display_policy).toBeUndefined();
    expect(reply.body.meta.field_groups).toBeUndefined();
    expect(reply.body.schema.properties.patternPrecedence.hidden).toBeUndefined();
  });

  it('applies the nearest policy named default for the model when none is named, and not when another is named', async () => {
    await post(
      'data/FieldDisplayPolicy',
      ACME,
      policy('default', {
        groups: [{ title: 'Number', fields: ['pattern'] }],
        field_overrides: [{ field: 'description', title: 'Notes' }],
      }),
    );
    const atSite = await form(PARIS);
    expect(atSite.body.meta.field_display_policy).toMatchObject({ name: 'default', hierarchy: ACME });
    expect(atSite.body.schema.properties.description.title).toBe('Notes');
    expect(groupTitles(atSite)).toEqual(['Number', 'Other']);

    const other = await form(PARIS, '&policy_name=Acme%20Line%20Form');
    expect(other.body.meta.field_display_policy.name).toBe('Acme Line Form');
    expect(other.body.schema.properties.description.title).toBe('Description');

    // Above the customer nothing is called default: the plain form.
    const above = await form('sys.hcs.Telco');
    expect(above.body.meta.field_display_policy).toBeUndefined();
  });

  it('a site default shadows the customer default; a default made for another model is passed over', async () => {
    await post('data/FieldDisplayPolicy', PARIS, policy('default', { groups: [{ title: 'Paris', fields: ['alertingName'] }] }));
    expect((await form(PARIS)).body.meta.field_display_policy).toMatchObject({ name: 'default', hierarchy: PARIS });
    expect(groupTitles(await form(PARIS))).toEqual(['Paris', 'Other']);

    await post('data/FieldDisplayPolicy', LONDON, {
      name: 'default',
      target_model_type: 'device/cucm/Phone',
      field_overrides: [{ field: 'product', readonly: true }],
    });
    const londonLine = await form(LONDON);
    expect(londonLine.body.meta.field_display_policy).toMatchObject({ name: 'default', hierarchy: ACME });
    const londonPhone = await form(LONDON, '', 'device/cucm/Phone');
    expect(londonPhone.body.meta.field_display_policy).toMatchObject({ name: 'default', hierarchy: LONDON });
    expect(londonPhone.body.schema.properties.product.readonly).toBe(true);
  });
});

describe('policy lookup errors', () => {
  it('answers 404 naming an unknown policy, by name and by pkid', async () => {
    const byName = await t.get(`/api/relation/LineRelation/add/${q(PARIS, '&policy_name=No%20Such%20Form')}`);
    expect(byName.status).toBe(404);
    expect(byName.body).toMatchObject({
      code: 'not-found',
      message: `Field Display Policy 'No Such Form' was not found at ${PARIS} or above.`,
    });
    const byPkid = await t.get(`/api/relation/LineRelation/add/${q(PARIS, '&policy=0123456789abcdef01234567')}`);
    expect(byPkid.status).toBe(404);
    expect(byPkid.body.message).toBe(`Field Display Policy 0123456789abcdef01234567 was not found at ${PARIS} or above.`);
  });

  it('does not reach a policy on another branch', async () => {
    const london = await post('data/FieldDisplayPolicy', LONDON, policy('London Form'));
    expect((await t.get(`/api/relation/LineRelation/add/${q(PARIS, '&policy_name=London%20Form')}`)).status).toBe(404);
    expect((await t.get(`/api/relation/LineRelation/add/${q(PARIS, `&policy=${london.body.pkid}`)}`)).status).toBe(404);
    expect((await form(LONDON, `&policy=${london.body.pkid}`)).body.meta.field_display_policy.name).toBe('London Form');
  });

  it('refuses a named policy made for another model with 400', async () => {
    await post('data/FieldDisplayPolicy', ACME, { name: 'Phone Form', target_model_type: 'device/cucm/Phone' });
    const reply = await t.get(`/api/relation/LineRelation/add/${q(PARIS, '&policy_name=Phone%20Form')}`);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'bad-parameter', details: [{ field: 'policy_name' }] });
    expect(reply.body.message).toMatch(/'Phone Form' is for device\/cucm\/Phone, not relation\/LineRelation/);
  });
});
