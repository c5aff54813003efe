import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_MODELS, findModelByName } from '../../main/service/models/registry';
import { openTestService, q, type TestService } from './helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService();
});
afterAll(() => t.close());

const NAMED_IN_ARCHITECTURE = [
  'data/HierarchyNode',
  'data/User',
  'data/GeneralHelp',
  'data/Countries',
  'data/InternalNumberInventory',
  'data/ConfigurationTemplate',
  'data/FieldDisplayPolicy',
  'device/cucm/Line',
  'device/cucm/Phone',
  'relation/LineRelation',
  'relation/Subscriber',
  'relation/Bundle',
  'tool/Transaction',
  'tool/BulkLoad',
  'tool/Search',
  'view/ExportData',
];

/** relation/LineRelation as the spec lists it: field -> the JSON types it may hold. */
const SPEC_LINE_RELATION: Record<string, string[]> = {
  pattern: ['string'],
  patternPrecedence: ['string'],
  routePartitionName: ['string'],
  usage: ['string'],
  alertingName: ['string'],
  description: ['string', 'null'],
  partyEntranceTone: ['string'],
  cfaCssPolicy: ['string'],
  autoAnswer: ['string'],
  presenceGroupName: ['string'],
  releaseClause: ['string'],
  shareLineAppearanceCssName: ['string'],
  rejectAnonymousCall: ['boolean'],
  aarKeepCallHistory: ['boolean'],
  aarVoiceMailEnabled: ['boolean'],
  allowCtiControlFlag: ['boolean'],
  parkMonForwardNoRetrieveVmEnabled: ['boolean'],
  hrInterval: ['null'],
  hrDuration: ['null'],
  parkMonReversionTimer: ['null'],
  parkMonForwardNoRetrieveIntCssName: ['string', 'null'],
  parkMonForwardNoRetrieveDn: ['string', 'null'],
  defaultActivatedDeviceName: ['string', 'null'],
  directoryURIs: ['string', 'null'],
  callForwardAll: ['object'],
  callForwardBusy: ['object'],
  callForwardNoAnswer: ['object'],
  callForwardNoCoverage: ['object'],
  callForwardNotRegistered: ['object'],
  callForwardNotRegisteredInt: ['object'],
  callForwardOnFailure: ['object'],
  e164AltNum: ['object'],
  enterpriseAltNum: ['object'],
  summary_device: ['string'],
  hierarchy_path: ['string'],
};

describe('model registry', () => {
  it('serves every model the architecture names', () => {
    expect(ALL_MODELS.map((model) => model.modelType)).toEqual(expect.arrayContaining(NAMED_IN_ARCHITECTURE));
    expect(findModelByName('LineRelation')?.modelType).toBe('relation/LineRelation');
  });

  it('gives every model a draft-03 schema with summary attributes, business key and actions', async () => {
    for (const modelType of NAMED_IN_ARCHITECTURE) {
      const reply = await t.get(`/api/${modelType}/add/${q('sys')}`);
      if (['tool/Transaction', 'tool/BulkLoad', 'tool/Search', 'view/ExportData'].includes(modelType)) continue;
      expect(reply.status, modelType).toBe(200);
      expect(reply.body.schema.$schema).toBe('http://json-schema.org/draft-03/schema#');
      expect(reply.body.meta.summary_attrs.length, modelType).toBeGreaterThan(0);
      expect(reply.body.meta.business_key.fields.length, modelType).toBeGreaterThan(0);
      expect(reply.body.meta.actions.find((a: { name: string }) => a.name === 'create')).toMatchObject({
        method: 'POST',
        support_async: true,
      });
      expect(reply.body.meta.actions.find((a: { name: string }) => a.name === 'list')).toMatchObject({
        method: 'GET',
        support_async: false,
      });
    }
  });

  it('describes relation/LineRelation with every field of the spec, with its type', async () => {
    const reply = await t.get(`/api/relation/LineRelation/${q('sys', '&schema=true&limit=1')}`);
    const properties = reply.body.schema.properties;
    for (const [field, types] of Object.entries(SPEC_LINE_RELATION)) {
      const declared = ([] as string[]).concat(properties[field]?.type ?? []);
      for (const type of types) expect(declared, field).toContain(type);
    }
    expect(properties.pattern.required).toBe(true);
    expect(Object.values(properties).filter((p) => (p as { required?: boolean }).required)).toHaveLength(1);
    expect(Object.keys(properties.callForwardAll.properties)).toEqual(['destination', 'forwardToVoiceMail', 'callingSearchSpaceName']);
    expect(properties.e164AltNum.properties.numMask.type).toEqual(['string', 'null']);
    expect(Object.keys(properties.enterpriseAltNum.properties)).toEqual(
      expect.arrayContaining(['isUrgent', 'addLocalRoutePartition', 'advertiseGloballyIls']),
    );
    expect(reply.body.meta.business_key).toEqual({ hierarchy: true, fields: ['pattern', 'routePartitionName'] });
  });

  it('uses the field names of decisions.md', async () => {
    const expected: Record<string, string[]> = {
      'data/HierarchyNode': ['name', 'node_type', 'description'],
      'data/User': ['username', 'role', 'email', 'password'],
      'data/Countries': ['country_name', 'iso_code', 'international_prefix'],
      'data/InternalNumberInventory': ['internal_number', 'status', 'usage', 'description', 'release_date'],
      'device/cucm/Phone': ['name', 'product', 'protocol', 'description', 'lines'],
      'device/cucm/Line': ['pattern', 'routePartitionName', 'description', 'alertingName', 'usage', 'callForwardAll'],
      'relation/Subscriber': [
        'userid',
        'firstname',
        'lastname',
        'mailid',
        'hierarchy_friendly_name',
        'device',
        'extension_mobility',
        'phone',
      ],
      'relation/Bundle': ['userid', 'firstname', 'lastname', 'device_name', 'product', 'pattern', 'alertingName'],
      'data/ConfigurationTemplate': ['name', 'description', 'target_model_type', 'merge_strategy', 'template', 'foreach'],
      'data/FieldDisplayPolicy': ['name', 'description', 'target_model_type', 'groups', 'field_overrides'],
    };
    for (const [modelType, fields] of Object.entries(expected)) {
      const reply = await t.get(`/api/${modelType}/add/${q('sys')}`);
      expect(Object.keys(reply.body.schema.properties), modelType).toEqual(expect.arrayContaining(fields));
    }
  });

  it('serves schema_rules with the display policies that apply', async () => {
    const reply = await t.get(`/api/relation/LineRelation/${q('sys', '&schema=true&schema_rules=true')}`);
    expect(reply.body.meta.gui_rules).toEqual([]);
    expect(reply.body.meta.field_display_policies).toEqual([]);
    expect(reply.body.meta.schema_version).toBe('0.2.2');
    const device = await t.get(`/api/device/cucm/Line/${q('sys', '&schema=true')}`);
    expect(device.body.meta.schema_version).toBe('11.5');
  });

  it('builds a help page from the schema', async () => {
    const reply = await t.get('/api/relation/LineRelation/help/');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.text).toContain('<code>callForwardAll.destination</code>');
    expect(reply.text).toContain('Directory Number');
    expect(reply.text).toContain('required');
  });
});
