import type { SchemaProperty } from '../../main/service/contract/resource-api';
import { FakeTransport, listOf } from './fake-transport';

/** Shapes as the service answers them (checked with curl against `serve --seed demo`). */
export const SITE = 'a1'.repeat(12);
export const CFT_PKID = 'c0'.repeat(12);
export const LINE_HREF = `/api/relation/LineRelation/${'d0'.repeat(12)}/`;
/** The policy named `default` the service applies by itself, and another one to pick. */
export const DEFAULT_POLICY = 'f0'.repeat(12);
export const ACME_POLICY = 'f1'.repeat(12);

const forward = (title: string): SchemaProperty => ({
  title,
  type: 'object',
  properties: {
    destination: { title: 'Destination', type: ['string', 'null'], format: 'directory-number' },
    forwardToVoiceMail: { title: 'Forward to Voice Mail', type: 'boolean', default: false },
    callingSearchSpaceName: { title: 'Calling Search Space', type: ['string', 'null'], hidden: true },
  },
});

export const lineSchema: SchemaProperty = {
  title: 'Line Relation',
  type: 'object',
  properties: {
    pattern: {
      title: 'Directory Number',
      type: 'string',
      required: true,
      pattern: '^(\\\\?\\+)?[0-9*#X]{1,24}$',
      maxLength: 50,
      description: 'E.164 with the leading +',
    },
    patternPrecedence: { title: 'Pattern Precedence', type: 'string', default: 'Default', hidden: true },
    routePartitionName: { title: 'Route Partition', type: 'string', default: '' },
    usage: { title: 'Usage', type: 'string', default: 'Device', readonly: true },
    alertingName: { title: 'Alerting Name', type: 'string', maxLength: 50 },
    description: { title: 'Description', type: ['string', 'null'], maxLength: 200 },
    autoAnswer: {
      title: 'Auto Answer',
      type: 'string',
      choices: [
        { value: 'Auto Answer Off', title: 'Off' },
        { value: 'Auto Answer with Headset', title: 'Headset' },
      ],
    },
    rejectAnonymousCall: { title: 'Reject Anonymous Calls', type: 'boolean', default: false },
    hrInterval: { title: 'Hold Reversion Interval', type: ['integer', 'null'] },
    presenceGroupName: { title: 'Presence Group', type: 'string', default: 'Standard Presence group' },
    callForwardAll: forward('Call Forward All'),
    callForwardBusy: forward('Call Forward Busy'),
  },
};

export const lineForm = {
  data: {
    patternPrecedence: 'Default',
    routePartitionName: '',
    usage: 'Device',
    rejectAnonymousCall: false,
    presenceGroupName: 'Standard Presence group',
  },
  schema: lineSchema,
  meta: {
    title: 'Line Relation',
    model_type: 'relation/LineRelation',
    summary_attrs: [{ name: 'pattern', title: 'Directory Number' }],
    field_display_policy: { pkid: DEFAULT_POLICY, name: 'default', hierarchy: 'sys.hcs.Telco.Acme' },
    field_groups: [
      {
        title: 'Line',
        fields: [
          'pattern',
          'routePartitionName',
          'usage',
          'alertingName',
          'description',
          'autoAnswer',
          'rejectAnonymousCall',
          'hrInterval',
          'presenceGroupName',
        ],
      },
      { title: 'Forwarding', fields: ['callForwardAll', 'callForwardBusy'] },
    ],
  },
};

/** The same form with "Acme Line Form" applied: other groups, and a default of its own. */
export const acmeLineForm = {
  data: { ...lineForm.data, routePartitionName: 'Acme-PT' },
  schema: lineSchema,
  meta: {
    ...lineForm.meta,
    field_display_policy: { pkid: ACME_POLICY, name: 'Acme Line Form', hierarchy: 'sys.hcs.Telco.Acme' },
    field_groups: [
      { title: 'Essentials', fields: ['pattern', 'alertingName', 'routePartitionName', 'presenceGroupName'] },
      { title: 'Forward all', fields: ['callForwardAll'] },
    ],
  },
};

const policy = (pkid: string, name: string, description: string) => ({
  data: { name, description, target_model_type: 'relation/LineRelation', groups: [], field_overrides: [] },
  meta: { model_type: 'data/FieldDisplayPolicy', pkid, hierarchy: 'sys.hcs.Telco.Acme', href: `/api/data/FieldDisplayPolicy/${pkid}/` },
});

export const policies = [
  policy(ACME_POLICY, 'Acme Line Form', 'What Acme engineers fill in for a line'),
  policy(DEFAULT_POLICY, 'default', 'Every line field'),
];

export const phoneForm = {
  data: { protocol: 'SIP', lines: [] },
  schema: {
    title: 'Phone',
    type: 'object',
    properties: {
      name: { title: 'Device Name', type: 'string', required: true, maxLength: 15 },
      protocol: {
        title: 'Protocol',
        type: 'string',
        default: 'SIP',
        choices: [
          { value: 'SIP', title: 'SIP' },
          { value: 'SCCP', title: 'SCCP' },
        ],
      },
      lines: {
        title: 'Lines',
        type: 'array',
        maxItems: 2,
        items: {
          title: 'Line',
          type: 'object',
          properties: {
            pattern: { title: 'Directory Number', type: 'string', required: true },
            routePartitionName: { title: 'Route Partition', type: 'string', default: '' },
          },
        },
      },
    },
  } satisfies SchemaProperty,
  meta: { title: 'Phone' },
};

export const cft = {
  data: {
    name: 'Paris Desk Line',
    description: 'Desk phones',
    target_model_type: 'relation/LineRelation',
    template: {
      alertingName: '{{ input.pattern }} Paris',
      routePartitionName: 'Paris-PT',
      presenceGroupName: 'Paris Presence group',
      callForwardBusy: { forwardToVoiceMail: true },
    },
  },
  meta: {
    model_type: 'data/ConfigurationTemplate',
    pkid: CFT_PKID,
    hierarchy: 'sys.hcs.Telco.Acme.Paris',
    href: `/api/data/ConfigurationTemplate/${CFT_PKID}/`,
  },
};

export const storedLine = {
  data: {
    pattern: '+33140001000',
    routePartitionName: 'Paris-PT',
    usage: 'Device',
    alertingName: 'Alice Martin',
    description: 'desk',
    callForwardAll: { destination: null, forwardToVoiceMail: false },
    rejectAnonymousCall: false,
  },
  meta: { model_type: 'relation/LineRelation', pkid: 'd0'.repeat(12), hierarchy: 'sys.hcs.Telco.Acme.Paris', href: LINE_HREF },
};

export const ACCEPTED = { status: 202, body: { href: '/api/tool/Transaction/t-1/', success: true, transaction_id: 't-1' } };

/** A service with the line form, one template and the stored line; POST and PUT accepted. */
export function lineService(): FakeTransport {
  return new FakeTransport()
    .on('GET', '/api/relation/LineRelation/add/', (call) => ({
      body: call.url.includes(`policy=${ACME_POLICY}`) ? acmeLineForm : lineForm,
    }))
    .on('GET', '/api/data/FieldDisplayPolicy/', { body: listOf(policies) })
    .on('GET', '/api/device/cucm/Phone/add/', { body: phoneForm })
    .on('GET', '/api/data/ConfigurationTemplate/', { body: listOf([cft]) })
    .on('GET', LINE_HREF, { body: storedLine })
    .on('POST', '/api/relation/LineRelation/', ACCEPTED)
    .on('POST', '/api/device/cucm/Phone/', ACCEPTED)
    .on('PUT', LINE_HREF, ACCEPTED)
    .on('GET', '/api/tool/Transaction/t-1/poll/', { body: { 't-1': { status: 'Success', href: '/api/tool/Transaction/t-1/' } } });
}

export function bodyOf(transport: FakeTransport, method: string): Record<string, unknown> | undefined {
  const call = [...transport.calls].reverse().find((c) => c.method === method);
  return (call?.body as { data?: Record<string, unknown> } | undefined)?.data;
}
