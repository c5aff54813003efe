import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME, LONDON, openTestService, PARIS, q, type Reply, type TestService } from './helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
  // Macros at the customer: a voice-mail pilot, and one macro that holds another.
  await post('data/Macro', ACME, { name: 'vm_pilot', value: '+33140008000', description: 'Voice mail pilot' });
  await post('data/Macro', ACME, { name: 'voicemail', value: '{{ macro.vm_pilot }}' });
  await post('data/Macro', ACME, { name: 'desk_label', value: '{{ fn.upper input.alertingName }} desk' });
  await post('data/ConfigurationTemplate', ACME, DESK_LINE);
  await post('data/ConfigurationTemplate', ACME, FORWARDING);
});
afterAll(() => t.close());

async function post(model: string, hierarchy: string, data: unknown): Promise<Reply> {
  const reply = await t.call('POST', `/api/${model}/${q(hierarchy)}`, { data });
  expect(reply.status, reply.text).toBe(200);
  return reply;
}

const template = (name: string, body: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name,
  description: `${name} for tests`,
  target_model_type: 'relation/LineRelation',
  merge_strategy: 'merge',
  template: body,
  ...extra,
});

/** Realistic LineRelation defaults built from the caller's values and the customer's macros. */
const DESK_LINE = template('Desk Line', {
  description: '{{ input.alertingName }} desk line',
  usage: 'Device',
  presenceGroupName: 'Acme Presence',
  routePartitionName: 'Acme-PT',
  callForwardNoAnswer: { destination: '{{ macro.voicemail }}', forwardToVoiceMail: true, callingSearchSpaceName: 'Acme-CSS' },
  // A whole-value macro keeps its type: this stays a boolean.
  callForwardBusy: {
    destination: '{{ self.callForwardNoAnswer.destination }}',
    forwardToVoiceMail: '{{ self.callForwardNoAnswer.forwardToVoiceMail }}',
  },
  directoryURIs: '{{ fn.lower (fn.replace input.alertingName " " ".") }}@acme.example',
  parkMonForwardNoRetrieveDn: '{{ fn.default input.callForwardAll.destination input.pattern }}',
  shareLineAppearanceCssName: '{{ macro.desk_label }}',
  e164AltNum: { numMask: '+3314000{{ fn.substring input.pattern -4 }}', isUrgent: false },
});

/** One input list of {type, destination, voicemail?} builds the call-forward objects. */
const FORWARDING = template(
  'Forwarding',
  {
    description: 'Forwards {{ input.forwards.0.type }} first',
    __foreach__: {
      'callForward{{ item.type }}': {
        destination: '{{ item.destination }}',
        forwardToVoiceMail: '{{ fn.default item.voicemail false }}',
        callingSearchSpaceName: 'CSS-{{ index }}',
      },
    },
  },
  { foreach: 'forwards' },
);

async function createLine(hierarchy: string, query: string, data: Record<string, unknown>): Promise<Record<string, unknown>> {
  const reply = await t.call('POST', `/api/relation/LineRelation/${q(hierarchy, query)}`, { data });
  expect(reply.status, reply.text).toBe(200);
  return (await t.get(reply.body.href)).body.data;
}

async function refused(hierarchy: string, query: string, data: Record<string, unknown>, status: number): Promise<Reply> {
  const before = t.snapshot();
  const reply = await t.call('POST', `/api/relation/LineRelation/${q(hierarchy, query)}`, { data });
  expect(reply.status, reply.text).toBe(status);
  expect(t.snapshot()).toBe(before);
  return reply;
}

const named = (name: string): string => `&template_name=${encodeURIComponent(name)}`;

describe('Configuration Templates on POST', () => {
  it('fills LineRelation defaults from input values, macros, functions and self references', async () => {
    const line = await createLine(PARIS, named('Desk Line'), { pattern: '+33199990001', alertingName: 'Marie Curie' });
    expect(line).toMatchObject({
      pattern: '+33199990001',
      alertingName: 'Marie Curie',
      description: 'Marie Curie desk line',
      usage: 'Device',
      presenceGroupName: 'Acme Presence',
      routePartitionName: 'Acme-PT',
      callForwardNoAnswer: { destination: '+33140008000', forwardToVoiceMail: true, callingSearchSpaceName: 'Acme-CSS' },
      callForwardBusy: { destination: '+33140008000', forwardToVoiceMail: true },
      directoryURIs: 'marie.curie@acme.example',
      parkMonForwardNoRetrieveDn: '+33199990001',
      shareLineAppearanceCssName: 'MARIE CURIE desk',
      e164AltNum: { numMask: '+33140000001', isUrgent: false },
    });
    // Fields the template leaves alone still get the model's defaults.
    expect(line.patternPrecedence).toBe('Default');
  });

  it('reads nested input values through dot paths (fn.default takes the first that is given)', async () => {
    const line = await createLine(PARIS, named('Desk Line'), {
      pattern: '+33199990002',
      alertingName: 'Pierre',
      callForwardAll: { destination: '+33612345678' },
    });
    expect(line.parkMonForwardNoRetrieveDn).toBe('+33612345678');
    expect(line.callForwardAll).toEqual({ destination: '+33612345678' });
  });

  it('applies the demo template by name', async () => {
    const line = await createLine(LONDON, named('Acme Line Defaults'), { pattern: '+442079999001', alertingName: 'Ada Lovelace' });
    expect(line).toMatchObject({ description: 'Ada Lovelace line', usage: 'Device', callForwardNoAnswer: { forwardToVoiceMail: true } });
  });

  it('builds call-forward entries with foreach, and keeps the helper list out of the stored line', async () => {
    const line = await createLine(PARIS, named('Forwarding'), {
      pattern: '+33199990003',
      forwards: [
        { type: 'All', destination: '+33611111111' },
        { type: 'Busy', destination: '+33140008000', voicemail: true },
        { type: 'NoAnswer', destination: '+33622222222' },
      ],
      callForwardBusy: { callingSearchSpaceName: 'Caller-CSS' },
    });
    expect(line.description).toBe('Forwards All first');
    expect(line.callForwardAll).toEqual({ destination: '+33611111111', forwardToVoiceMail: false, callingSearchSpaceName: 'CSS-0' });
    expect(line.callForwardBusy).toEqual({ destination: '+33140008000', forwardToVoiceMail: true, callingSearchSpaceName: 'Caller-CSS' });
    expect(line.callForwardNoAnswer).toEqual({ destination: '+33622222222', forwardToVoiceMail: false, callingSearchSpaceName: 'CSS-2' });
    expect(line.callForwardOnFailure).toBeUndefined();
    expect(line).not.toHaveProperty('forwards');
  });

  it('builds a list with a key ending in [] (a phone with one line per input number)', async () => {
    await post('data/ConfigurationTemplate', PARIS, {
      name: 'Desk Phone',
      target_model_type: 'device/cucm/Phone',
      foreach: 'numbers',
      template: {
        product: 'Cisco 8845',
        'lines[]': { pattern: '{{ item }}', routePartitionName: 'Paris-PT' },
        description: '{{ input.name }}: first line {{ self.lines.0.pattern }}, {{ input.numbers.1 }} second',
      },
    });
    const reply = await t.call('POST', `/api/device/cucm/Phone/${q(PARIS, named('Desk Phone'))}`, {
      data: { name: 'SEP00BB00000001', numbers: ['+33199990010', '+33199990011'] },
    });
    expect(reply.status, reply.text).toBe(200);
    const phone = (await t.get(reply.body.href)).body.data;
    expect(phone).toMatchObject({
      name: 'SEP00BB00000001',
      product: 'Cisco 8845',
      description: 'SEP00BB00000001: first line +33199990010, +33199990011 second',
      lines: [
        { pattern: '+33199990010', routePartitionName: 'Paris-PT' },
        { pattern: '+33199990011', routePartitionName: 'Paris-PT' },
      ],
    });
    expect(phone).not.toHaveProperty('numbers');
  });

  it('refuses a foreach field that is not a list, naming it', async () => {
    const reply = await refused(PARIS, named('Forwarding'), { pattern: '+33199990004', forwards: 'All' }, 400);
    expect(reply.body.details).toEqual([{ field: 'forwards', message: "must be a list (the template's foreach field)" }]);
  });

  it('formats fn.now with strftime codes, and ISO by default', async () => {
    await post('data/ConfigurationTemplate', ACME, template('Dated', { description: 'Added {{ fn.now "%Y-%m-%d" }} at {{ fn.now }}' }));
    const line = await createLine(PARIS, named('Dated'), { pattern: '+33199990005' });
    expect(line.description).toMatch(/^Added \d{4}-\d\d-\d\d at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });
});

describe('template lookup', () => {
  it('finds a customer template from a site, and a site template of the same name shadows it', async () => {
    await post('data/ConfigurationTemplate', LONDON, template('Desk Line', { description: '{{ input.alertingName }} London line' }));
    const london = await createLine(LONDON, named('Desk Line'), { pattern: '+442079999002', alertingName: 'Alan Turing' });
    expect(london.description).toBe('Alan Turing London line');
    expect(london.presenceGroupName).toBe('Standard Presence group');
    const paris = await createLine(PARIS, named('Desk Line'), { pattern: '+33199990006', alertingName: 'Irène' });
    expect(paris.description).toBe('Irène desk line');
  });

  it('applies a template by pkid when it sits at the node or above', async () => {
    const created = await post('data/ConfigurationTemplate', ACME, template('By Pkid', { description: 'from {{ input.pattern }}' }));
    const line = await createLine(PARIS, `&template=${created.body.pkid}`, { pattern: '+33199990007' });
    expect(line.description).toBe('from +33199990007');
  });

  it('answers 404 naming an unknown template, by name and by pkid, and stores nothing', async () => {
    const byName = await refused(PARIS, named('No Such Template'), { pattern: '+33199990008' }, 404);
    expect(byName.body).toMatchObject({
      code: 'not-found',
      message: `Configuration Template 'No Such Template' was not found at ${PARIS} or above.`,
    });
    const byPkid = await refused(PARIS, '&template=0123456789abcdef01234567', { pattern: '+33199990008' }, 404);
    expect(byPkid.body.message).toBe(`Configuration Template 0123456789abcdef01234567 was not found at ${PARIS} or above.`);
  });

  it('does not reach a template on another branch, or an instance of another model by pkid', async () => {
    const london = await post('data/ConfigurationTemplate', LONDON, template('London Only', { description: 'x' }));
    await refused(PARIS, named('London Only'), { pattern: '+33199990009' }, 404);
    await refused(PARIS, `&template=${london.body.pkid}`, { pattern: '+33199990009' }, 404);
    const macro = (await t.get(`/api/data/Macro/${q(ACME, '&filter_field=name&filter_condition=equals&filter_text=vm_pilot')}`)).body;
    await refused(PARIS, `&template=${macro.resources[0].meta.pkid}`, { pattern: '+33199990009' }, 404);
  });

  it('refuses a template made for another model with 400', async () => {
    await post('data/ConfigurationTemplate', ACME, {
      name: 'Phone Defaults',
      target_model_type: 'device/cucm/Phone',
      template: { product: 'Cisco 7841' },
    });
    const reply = await refused(PARIS, named('Phone Defaults'), { pattern: '+33199990009' }, 400);
    expect(reply.body.code).toBe('bad-parameter');
    expect(reply.body.message).toMatch(/'Phone Defaults' is for device\/cucm\/Phone, not relation\/LineRelation/);
    expect(reply.body.details[0].field).toBe('template_name');
  });
});

describe('explicit values and merge strategies', () => {
  it('merge: the caller wins at the top level and inside nested objects', async () => {
    const line = await createLine(PARIS, named('Desk Line'), {
      pattern: '+33199990020',
      alertingName: 'Own Name',
      description: 'My own description',
      usage: 'Device Intercom',
      callForwardNoAnswer: { destination: '+33633333333' },
    });
    expect(line.description).toBe('My own description');
    expect(line.usage).toBe('Device Intercom');
    expect(line.callForwardNoAnswer).toEqual({ destination: '+33633333333', forwardToVoiceMail: true, callingSearchSpaceName: 'Acme-CSS' });
    // A self reference reads the template's own value, not the caller's.
    expect(line.callForwardBusy).toEqual({ destination: '+33140008000', forwardToVoiceMail: true });
  });

  it('an explicit null or false still wins over a template value', async () => {
    const line = await createLine(PARIS, named('Desk Line'), {
      pattern: '+33199990021',
      alertingName: 'Null',
      description: null,
      callForwardNoAnswer: { forwardToVoiceMail: false },
    });
    expect(line.description).toBeNull();
    expect(line.callForwardNoAnswer).toMatchObject({ destination: '+33140008000', forwardToVoiceMail: false });
  });

  it('replace: a field the caller gives replaces the template value whole, nested objects are not merged', async () => {
    await post(
      'data/ConfigurationTemplate',
      ACME,
      template(
        'Replace Line',
        { usage: 'Device template', callForwardNoAnswer: { destination: '{{ macro.voicemail }}', forwardToVoiceMail: true } },
        { merge_strategy: 'replace' },
      ),
    );
    const given = await createLine(PARIS, named('Replace Line'), {
      pattern: '+33199990022',
      callForwardNoAnswer: { destination: '+33644444444' },
    });
    expect(given.callForwardNoAnswer).toEqual({ destination: '+33644444444' });
    expect(given.usage).toBe('Device template');
    const omitted = await createLine(PARIS, named('Replace Line'), { pattern: '+33199990023' });
    expect(omitted.callForwardNoAnswer).toEqual({ destination: '+33140008000', forwardToVoiceMail: true });
  });
});

describe('macro errors', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>, string, RegExp][] = [
    [
      'Unknown Macro',
      { callForwardAll: { destination: '{{ macro.nosuch }}' } },
      {},
      'callForwardAll.destination',
      /\{\{ macro\.nosuch \}\}: no Macro named 'nosuch' was found at sys\.hcs\.Telco\.Acme\.Paris or above/,
    ],
    [
      'Missing Input',
      { description: '{{ input.alertingName }} desk' },
      {},
      'description',
      /input\.alertingName.*the payload has no value at input\.alertingName/,
    ],
    [
      'Bad Input Path',
      { description: '{{ input.pattern.digits }}' },
      {},
      'description',
      /bad path: input\.pattern is "\+33199990030", which has no 'digits'/,
    ],
    [
      'Bad Index',
      { description: '{{ input.callForwardAll.first }}' },
      { callForwardAll: { destination: '1' } },
      'description',
      /no value at input\.callForwardAll\.first/,
    ],
    [
      'Self Cycle',
      { description: '{{ self.alertingName }}', alertingName: 'x {{ self.description }}' },
      {},
      'alertingName',
      /cycle: description -> alertingName -> description/,
    ],
    ['Unknown Function', { description: '{{ fn.shout input.pattern }}' }, {}, 'description', /fn\.shout is not a function/],
    ['Unclosed', { description: 'Line {{ input.pattern' }, {}, 'description', /has no closing '\}\}'/],
    ['Bad Format', { description: '{{ fn.now "%Q" }}' }, {}, 'description', /%Q is not a date code/],
    ['Item Outside', { description: '{{ item.type }}' }, {}, 'description', /item is only defined inside a foreach entry/],
  ];
  for (const [name, body, extra, field, message] of cases) {
    it(`${name}: 400 naming the field and the macro, nothing stored`, async () => {
      await post('data/ConfigurationTemplate', ACME, template(name, body));
      const reply = await refused(PARIS, named(name), { pattern: '+33199990030', ...extra }, 400);
      expect(reply.body.code).toBe('macro-error');
      expect(reply.body.message).toMatch(message);
      expect(reply.body.message.startsWith(`Macro error in ${field}: `)).toBe(true);
      expect(reply.body.details).toHaveLength(1);
      expect(reply.body.details[0].field).toBe(field);
      expect(reply.body.details[0].message).toMatch(message);
    });
  }

  it('names the path to a problem inside a data/Macro, and stops a macro that expands to itself', async () => {
    await post('data/Macro', PARIS, { name: 'broken', value: 'ext {{ input.nothing }}' });
    await post('data/Macro', PARIS, { name: 'loop_a', value: '{{ macro.loop_b }}' });
    await post('data/Macro', PARIS, { name: 'loop_b', value: 'b{{ macro.loop_a }}' });
    await post('data/ConfigurationTemplate', ACME, template('Broken Macro', { description: '{{ macro.broken }}' }));
    const broken = await refused(PARIS, named('Broken Macro'), { pattern: '+33199990031' }, 400);
    expect(broken.body.details[0]).toEqual({
      field: 'description',
      message: `{{ macro.broken }}: in Macro 'broken': {{ input.nothing }}: the payload has no value at input.nothing; give it, or use fn.default input.nothing "<fallback>"`,
    });
    await post('data/ConfigurationTemplate', ACME, template('Looping Macro', { directoryURIs: '{{ macro.loop_a }}' }));
    const looping = await refused(PARIS, named('Looping Macro'), { pattern: '+33199990031' }, 400);
    expect(looping.body.details[0].field).toBe('directoryURIs');
    expect(looping.body.message).toMatch(/loop_a -> loop_b -> loop_a expands to itself/);
  });

  it('validates what the template builds like the caller values (a wrong type is validation-failed)', async () => {
    await post('data/ConfigurationTemplate', ACME, template('Wrong Type', { rejectAnonymousCall: 'yes {{ input.pattern }}' }));
    const reply = await refused(PARIS, named('Wrong Type'), { pattern: '+33199990032' }, 400);
    expect(reply.body.code).toBe('validation-failed');
    expect(reply.body.details[0].field).toBe('rejectAnonymousCall');
  });
});

describe('Configuration Templates on PUT', () => {
  it('applies the template to the changes, reading stored values the caller did not send', async () => {
    const created = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, {
      data: { pattern: '+33199990040', alertingName: 'Before' },
    });
    expect(created.status).toBe(200);
    const reply = await t.call('PUT', `${created.body.href}?template_name=Desk%20Line`, { data: { alertingName: 'After Rename' } });
    expect(reply.status, reply.text).toBe(200);
    const line = (await t.get(created.body.href)).body.data;
    expect(line).toMatchObject({
      pattern: '+33199990040',
      alertingName: 'After Rename',
      description: 'After Rename desk line',
      directoryURIs: 'after.rename@acme.example',
      parkMonForwardNoRetrieveDn: '+33199990040',
      callForwardNoAnswer: { destination: '+33140008000', forwardToVoiceMail: true },
    });
  });

  it('answers 404 for an unknown template on PUT and changes nothing', async () => {
    const created = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, { data: { pattern: '+33199990041' } });
    const before = t.snapshot();
    const reply = await t.call('PUT', `${created.body.href}?template_name=Nope`, { data: { alertingName: 'x' } });
    expect(reply.status).toBe(404);
    expect(reply.body.message).toBe(`Configuration Template 'Nope' was not found at ${PARIS} or above.`);
    expect(t.snapshot()).toBe(before);
  });
});
