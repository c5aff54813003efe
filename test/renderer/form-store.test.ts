import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../renderer/src/api/api-client';
import { createFormStore } from '../../renderer/src/store/form-store';
import { fault } from './fake-transport';
import { ACME_POLICY, bodyOf, CFT_PKID, DEFAULT_POLICY, LINE_HREF, lineForm, lineService, SITE } from './form-fixtures';

async function lineStore(transport = lineService()) {
  const form = createFormStore(new ApiClient(transport));
  await form.getState().load({ modelType: 'relation/LineRelation', hierarchy: SITE });
  return { form, transport };
}

describe('form store: add', () => {
  it('loads the form at the node and lists the templates for this model up the tree', async () => {
    const { form, transport } = await lineStore();
    expect(form.getState().status).toBe('ready');
    expect(form.getState().title).toBe('Line Relation');
    expect(transport.lastQuery('/api/relation/LineRelation/add/').get('hierarchy')).toBe(SITE);
    const cfts = transport.lastQuery('/api/data/ConfigurationTemplate/');
    expect([
      cfts.get('hierarchy'),
      cfts.get('traversal'),
      cfts.get('filter_field'),
      cfts.get('filter_condition'),
      cfts.get('filter_text'),
    ]).toEqual([SITE, 'up', 'target_model_type', 'equals', 'relation/LineRelation']);
    expect(form.getState().templates.map((t) => t.name)).toEqual(['Paris Desk Line']);
  });

  it('posts with nowait=true and the hierarchy, sending only the fields that have a value', async () => {
    const { form, transport } = await lineStore();
    form.getState().setValue('pattern', '+33140005555');
    form.getState().setValue('alertingName', '');
    const started = await form.getState().submit();
    expect(started).toEqual({ transactionId: 't-1', label: 'Add Line Relation' });
    const query = transport.lastQuery('/api/relation/LineRelation/');
    expect(query.get('nowait')).toBe('true');
    expect(query.get('hierarchy')).toBe(SITE);
    expect(query.has('template')).toBe(false);
    // The form's starting values (policy and model defaults) are sent; empty fields are not.
    expect(bodyOf(transport, 'POST')).toEqual({
      pattern: '+33140005555',
      patternPrecedence: 'Default',
      usage: 'Device',
      rejectAnonymousCall: false,
      presenceGroupName: 'Standard Presence group',
    });
  });

  it('builds nested objects from dot paths and converts whole numbers', async () => {
    const { form, transport } = await lineStore();
    form.getState().setValue('pattern', '1000');
    form.getState().setValue('callForwardAll.destination', '+33140009999');
    form.getState().setValue('callForwardBusy.forwardToVoiceMail', true);
    form.getState().setValue('hrInterval', '30');
    await form.getState().submit();
    const data = bodyOf(transport, 'POST');
    expect(data?.callForwardAll).toEqual({ destination: '+33140009999' });
    expect(data?.callForwardBusy).toEqual({ forwardToVoiceMail: true });
    expect(data?.hrInterval).toBe(30);
  });

  it('builds list rows at indexed paths (lines.0.pattern) and respects maxItems', async () => {
    const transport = lineService();
    const phone = createFormStore(new ApiClient(transport));
    await phone.getState().load({ modelType: 'device/cucm/Phone', hierarchy: SITE });
    phone.getState().setValue('name', 'SEP001122334455');
    phone.getState().addRow('lines');
    phone.getState().setValue('lines.0.pattern', '+33140001000');
    phone.getState().addRow('lines');
    phone.getState().addRow('lines');
    expect(await phone.getState().submit()).toBeUndefined();
    expect(phone.getState().errors).toMatchObject({
      lines: 'Lines takes at most 2 rows.',
      'lines.1.pattern': 'Directory Number is required.',
    });
    phone.getState().removeRow('lines', 2);
    phone.getState().removeRow('lines', 1);
    await phone.getState().submit();
    expect(bodyOf(transport, 'POST')).toEqual({ name: 'SEP001122334455', protocol: 'SIP', lines: [{ pattern: '+33140001000' }] });
  });

  it('blocks the submit with the schema messages for required, pattern and maxLength', async () => {
    const { form, transport } = await lineStore();
    expect(await form.getState().submit()).toBeUndefined();
    expect(form.getState().errors).toEqual({ pattern: 'Directory Number is required.' });
    form.getState().setValue('pattern', '12ab');
    form.getState().setValue('alertingName', 'x'.repeat(51));
    form.getState().setValue('hrInterval', '2.5');
    expect(form.getState().errors).toEqual({
      pattern: 'Directory Number is not in the expected form.',
      alertingName: 'Alerting Name is too long: at most 50 characters (now 51).',
      hrInterval: 'Hold Reversion Interval must be a whole number.',
    });
    expect(transport.calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('maps the details of a 400 onto the fields they name, and forgets one once its field changes', async () => {
    const transport = lineService().on('POST', '/api/relation/LineRelation/', {
      status: 400,
      body: {
        success: false,
        http_code: 400,
        code: 'validation-failed',
        message: 'Invalid data: callForwardAll.destination: bad',
        details: [{ field: 'callForwardAll.destination', message: "'x' does not have the expected form" }],
      },
    });
    const { form } = await lineStore(transport);
    form.getState().setValue('pattern', '1000');
    form.getState().setValue('callForwardAll.destination', 'x');
    expect(await form.getState().submit()).toBeUndefined();
    expect(form.getState().fault?.code).toBe('validation-failed');
    expect(form.getState().errors['callForwardAll.destination']).toBe("'x' does not have the expected form");
    form.getState().setValue('callForwardAll.destination', '2000');
    expect(form.getState().errors['callForwardAll.destination']).toBeUndefined();
  });

  it('sends the picked template by pkid and leaves untouched fields it fills to it', async () => {
    const { form, transport } = await lineStore();
    form.getState().setValue('routePartitionName', 'Mine-PT');
    form.getState().pickTemplate(CFT_PKID);
    expect(form.getState().fills.map((fill) => `${fill.path} <- ${fill.text}`)).toEqual([
      'alertingName <- {{ input.pattern }} Paris',
      'routePartitionName <- Paris-PT',
      'presenceGroupName <- Paris Presence group',
      'callForwardBusy.forwardToVoiceMail <- true',
    ]);
    // Untouched: emptied, so the form shows the template's value instead of the schema default.
    expect(form.getState().values.presenceGroupName).toBeUndefined();
    // Typed before the pick: kept.
    expect(form.getState().values.routePartitionName).toBe('Mine-PT');
    form.getState().setValue('pattern', '1000');
    form.getState().setValue('alertingName', 'Reception');
    await form.getState().submit();
    expect(transport.lastQuery('/api/relation/LineRelation/').get('template')).toBe(CFT_PKID);
    const data = bodyOf(transport, 'POST');
    // Typed by the user: sent, so it wins over the template; the emptied default is not sent.
    expect(data).toMatchObject({ alertingName: 'Reception', routePartitionName: 'Mine-PT' });
    expect(data).not.toHaveProperty('presenceGroupName');
    expect(data).not.toHaveProperty('callForwardBusy');
  });

  it('sends exactly what the form holds once a template is picked: a typed default is the user value', async () => {
    const { form, transport } = await lineStore();
    form.getState().pickTemplate(CFT_PKID);
    form.getState().setValue('pattern', '1000');
    // Typed back by hand, the schema default is a value the user chose: shown, so sent.
    form.getState().setValue('presenceGroupName', 'Standard Presence group');
    await form.getState().submit();
    expect(bodyOf(transport, 'POST')?.presenceGroupName).toBe('Standard Presence group');
  });

  it('gives the defaults back when the template is unpicked, keeping what the user typed', async () => {
    const { form } = await lineStore();
    form.getState().pickTemplate(CFT_PKID);
    form.getState().setValue('alertingName', 'Reception');
    form.getState().pickTemplate(undefined);
    expect(form.getState().values).toMatchObject({
      presenceGroupName: 'Standard Presence group',
      routePartitionName: '',
      alertingName: 'Reception',
    });
    expect(form.getState().fills).toEqual([]);
  });

  it('lists the layouts for the model up the tree, preselecting the one the service applied', async () => {
    const { form, transport } = await lineStore();
    const query = transport.lastQuery('/api/data/FieldDisplayPolicy/');
    expect([
      query.get('hierarchy'),
      query.get('traversal'),
      query.get('summary'),
      query.get('filter_field'),
      query.get('filter_condition'),
      query.get('filter_text'),
    ]).toEqual([SITE, 'up', 'false', 'target_model_type', 'equals', 'relation/LineRelation']);
    expect(form.getState().policies.map((p) => p.name)).toEqual(['Acme Line Form', 'default']);
    expect(form.getState().policyPkid).toBe(DEFAULT_POLICY);
    expect(transport.lastQuery('/api/relation/LineRelation/add/').has('policy')).toBe(false);
  });

  it('re-reads the form with a picked layout, keeps typed values, and remembers the layout for the model', async () => {
    const { form, transport } = await lineStore();
    form.getState().setValue('alertingName', 'Reception');
    await form.getState().pickPolicy(ACME_POLICY);
    expect(transport.lastQuery('/api/relation/LineRelation/add/').get('policy')).toBe(ACME_POLICY);
    expect(form.getState().groups.map((g) => g.title)).toEqual(['Essentials', 'Forward all']);
    // The user's value stays; a field left alone takes the new layout's default.
    expect(form.getState().values).toMatchObject({ alertingName: 'Reception', routePartitionName: 'Acme-PT' });
    await form.getState().load({ modelType: 'relation/LineRelation', hierarchy: SITE });
    expect(transport.lastQuery('/api/relation/LineRelation/add/').get('policy')).toBe(ACME_POLICY);
    expect(form.getState().policyPkid).toBe(ACME_POLICY);
    await form.getState().pickPolicy('');
    await form.getState().load({ modelType: 'relation/LineRelation', hierarchy: SITE });
    expect(transport.lastQuery('/api/relation/LineRelation/add/').has('policy')).toBe(false);
    expect(form.getState().policyPkid).toBe('');
  });

  it('keeps the picked template across a layout change', async () => {
    const { form, transport } = await lineStore();
    form.getState().pickTemplate(CFT_PKID);
    await form.getState().pickPolicy(ACME_POLICY);
    // The new layout's default for a filled field is not shown: the template gives it.
    expect(form.getState().values.routePartitionName).toBeUndefined();
    expect(form.getState().fillByPath.routePartitionName).toBe('Paris-PT');
    form.getState().setValue('pattern', '1000');
    await form.getState().submit();
    expect(bodyOf(transport, 'POST')).not.toHaveProperty('routePartitionName');
    expect(transport.lastQuery('/api/relation/LineRelation/').get('template')).toBe(CFT_PKID);
  });

  it('forgets a remembered layout that is gone and opens the default one', async () => {
    const transport = lineService();
    const { form } = await lineStore(transport);
    await form.getState().pickPolicy(ACME_POLICY);
    transport.on('GET', '/api/relation/LineRelation/add/', (call) =>
      call.url.includes('policy=') ? fault(404, 'not-found', 'Field Display Policy was not found.') : { body: lineForm },
    );
    await form.getState().load({ modelType: 'relation/LineRelation', hierarchy: SITE });
    expect(form.getState().status).toBe('ready');
    expect(form.getState().policyPkid).toBe(DEFAULT_POLICY);
    expect(form.getState().policyByModel).toEqual({});
  });

  it('shows a 403 on add/ as the load fault', async () => {
    const transport = lineService().on(
      'GET',
      '/api/relation/LineRelation/add/',
      fault(403, 'permission-denied', 'Permission Denied: sys.hcs is outside your hierarchy.'),
    );
    const { form } = await lineStore(transport);
    expect(form.getState().status).toBe('error');
    expect(form.getState().fault?.message).toMatch(/^Permission Denied/);
  });
});

describe('form store: edit', () => {
  it('prefills from the instance and PUTs only the changes to its href with nowait=true', async () => {
    const transport = lineService();
    const form = createFormStore(new ApiClient(transport));
    await form.getState().load({ modelType: 'relation/LineRelation', href: LINE_HREF, hierarchy: SITE });
    expect(form.getState().mode).toBe('edit');
    expect(transport.lastQuery('/api/relation/LineRelation/add/').get('hierarchy')).toBe('sys.hcs.Telco.Acme.Paris');
    expect(form.getState().values.alertingName).toBe('Alice Martin');
    expect(await form.getState().submit()).toBeUndefined();
    expect(form.getState().notice).toMatch(/Nothing has changed/);
    form.getState().setValue('alertingName', 'Alice M.');
    form.getState().setValue('description', '');
    form.getState().setValue('callForwardAll.destination', '+33140009999');
    const started = await form.getState().submit();
    expect(started?.label).toBe('Modify Line Relation');
    const put = transport.calls.find((call) => call.method === 'PUT');
    expect(put?.url).toBe(`${LINE_HREF}?nowait=true`);
    // The service merges a PUT over the stored line: only the changes, an emptied field as null.
    expect(bodyOf(transport, 'PUT')).toEqual({
      alertingName: 'Alice M.',
      description: null,
      callForwardAll: { destination: '+33140009999' },
    });
  });

  it('with a template, an emptied field it fills is left to the template rather than cleared', async () => {
    const transport = lineService();
    const form = createFormStore(new ApiClient(transport));
    await form.getState().load({ modelType: 'relation/LineRelation', href: LINE_HREF, hierarchy: SITE });
    form.getState().pickTemplate(CFT_PKID);
    // The stored value will be replaced by the template's: the field shows empty, like on add.
    expect(form.getState().values.alertingName).toBeUndefined();
    form.getState().setValue('description', 'moved');
    await form.getState().submit();
    expect(bodyOf(transport, 'PUT')).toEqual({ description: 'moved' });
    expect(transport.lastQuery(LINE_HREF).get('template')).toBe(CFT_PKID);
  });
});
