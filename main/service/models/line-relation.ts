import { resourceActions } from './actions';
import { callForward } from './call-forward';
import { AUTO_ANSWERS, CFA_CSS_POLICIES, LINE_USAGES, PARTY_ENTRANCE_TONES, PATTERN_PRECEDENCES, RELEASE_CLAUSES } from './cucm-choices';
import { directoryNumber, flag, nullableText, object, oneOf, text } from './field-builders';
import type { FieldDef, ModelDef } from './types';

/** A timer whose stored type varies between deployments (text or a whole number); the engineer types seconds. */
const unknownType = (title: string): FieldDef => ({
  type: ['string', 'integer', 'null'],
  title,
  description: 'In seconds, as a whole number. Leave empty to use the system default.',
});

export const lineRelation: ModelDef = {
  modelType: 'relation/LineRelation',
  title: 'Line Relation',
  description: 'A directory number at a hierarchy node: the device line, its number in the inventory, and the phone it sits on.',
  schemaVersion: '0.2.2',
  fields: {
    pattern: directoryNumber('Directory Number', { required: true }),
    patternPrecedence: oneOf('Pattern Precedence', PATTERN_PRECEDENCES, { default: 'Default' }),
    routePartitionName: text('Route Partition', { default: '', names: true }),
    usage: oneOf('Usage', LINE_USAGES, { default: 'Device' }),
    alertingName: text('Alerting Name', { maxLength: 50 }),
    description: nullableText('Description', { maxLength: 200, multiline: true }),
    partyEntranceTone: oneOf('Party Entrance Tone', PARTY_ENTRANCE_TONES, { default: 'Default' }),
    cfaCssPolicy: oneOf('CFA CSS Policy', CFA_CSS_POLICIES, { default: 'Use System Default' }),
    autoAnswer: oneOf('Auto Answer', AUTO_ANSWERS, { default: 'Auto Answer Off' }),
    presenceGroupName: text('Presence Group', { default: 'Standard Presence group', names: true }),
    releaseClause: oneOf('Release Clause', RELEASE_CLAUSES, { default: 'No Error' }),
    shareLineAppearanceCssName: text('Shared Line Appearance CSS', { names: true }),
    rejectAnonymousCall: flag('Reject Anonymous Calls', { default: false }),
    aarKeepCallHistory: flag('AAR Keep Call History', { default: true }),
    aarVoiceMailEnabled: flag('AAR Voice Mail Enabled', { default: false }),
    allowCtiControlFlag: flag('Allow CTI Control', { default: true }),
    parkMonForwardNoRetrieveVmEnabled: flag('Park Monitor Forward No Retrieve to Voice Mail', { default: false }),
    hrInterval: unknownType('Hold Reversion Interval'),
    hrDuration: unknownType('Hold Reversion Duration'),
    parkMonReversionTimer: unknownType('Park Monitor Reversion Timer'),
    parkMonForwardNoRetrieveIntCssName: nullableText('Park Monitor Forward No Retrieve Internal CSS', { names: true }),
    parkMonForwardNoRetrieveDn: nullableText('Park Monitor Forward No Retrieve Destination'),
    defaultActivatedDeviceName: nullableText('Default Activated Device', { names: true }),
    directoryURIs: nullableText('Directory URIs'),
    callForwardAll: callForward('Call Forward All'),
    callForwardBusy: callForward('Call Forward Busy'),
    callForwardNoAnswer: callForward('Call Forward No Answer'),
    callForwardNoCoverage: callForward('Call Forward No Coverage'),
    callForwardNotRegistered: callForward('Call Forward Not Registered'),
    callForwardNotRegisteredInt: callForward('Call Forward Not Registered Internal'),
    callForwardOnFailure: callForward('Call Forward On Failure'),
    e164AltNum: object('E.164 Alternate Number', {
      numMask: nullableText('Number Mask'),
      addLocalRoutePartition: flag('Add to Local Route Partition', { default: false }),
      advertiseGloballyIls: flag('Advertise Globally via ILS', { default: false }),
      routePartition: nullableText('Route Partition', { names: true }),
      isUrgent: flag('Urgent', { default: false }),
    }),
    enterpriseAltNum: object('Enterprise Alternate Number', {
      numMask: nullableText('Number Mask'),
      isUrgent: flag('Urgent', { default: false }),
      addLocalRoutePartition: flag('Add to Local Route Partition', { default: false }),
      advertiseGloballyIls: flag('Advertise Globally via ILS', { default: false }),
      routePartition: nullableText('Route Partition', { names: true }),
    }),
    summary_device: text('Device', { names: true, description: 'Name of the phone the line is on, e.g. SEP001122334455.' }),
    hierarchy_path: text('Hierarchy Path', { readonly: true, format: 'hierarchy' }),
  },
  summaryAttrs: ['pattern', 'routePartitionName', 'alertingName', 'summary_device', 'usage'],
  businessKey: { hierarchy: true, fields: ['pattern', 'routePartitionName'] },
  actions: resourceActions(),
  storage: 'instances',
  workflow: 'line-relation',
};
