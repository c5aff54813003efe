import { resourceActions } from './actions';
import { callForward } from './call-forward';
import { LINE_USAGES } from './cucm-choices';
import { directoryNumber, nullableText, oneOf, text } from './field-builders';
import type { ModelDef } from './types';

export const cucmLine: ModelDef = {
  modelType: 'device/cucm/Line',
  title: 'Line',
  description: 'A directory number as the call manager holds it, with its partition and call forwarding.',
  schemaVersion: '11.5',
  fields: {
    pattern: directoryNumber('Directory Number', { required: true }),
    routePartitionName: text('Route Partition', { default: '', names: true }),
    description: nullableText('Description', { maxLength: 200, multiline: true }),
    alertingName: text('Alerting Name', { maxLength: 50 }),
    usage: oneOf('Usage', LINE_USAGES, { default: 'Device' }),
    callForwardAll: callForward('Call Forward All'),
    callForwardBusy: callForward('Call Forward Busy'),
    callForwardNoAnswer: callForward('Call Forward No Answer'),
    callForwardNoCoverage: callForward('Call Forward No Coverage'),
    callForwardNotRegistered: callForward('Call Forward Not Registered'),
    callForwardNotRegisteredInt: callForward('Call Forward Not Registered Internal'),
    callForwardOnFailure: callForward('Call Forward On Failure'),
  },
  summaryAttrs: ['pattern', 'routePartitionName', 'alertingName', 'description'],
  businessKey: { hierarchy: false, fields: ['pattern', 'routePartitionName'] },
  actions: resourceActions(),
  storage: 'instances',
  workflow: 'generic',
};
