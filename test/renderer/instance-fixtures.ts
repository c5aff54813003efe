import type { TransportAnswer, TransportRequestOptions } from '../../renderer/src/transport/transport';
import { FakeTransport } from './fake-transport';

export const LINE = `/api/relation/LineRelation/${'a'.repeat(24)}/`;
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function lineRelation(tags: string[] = ['vip', 'migrated'], versionTag: string | null = '1.2') {
  return {
    data: {
      pattern: '+33140001000',
      alertingName: 'Alice Martin',
      rejectAnonymousCall: false,
      callForwardNoAnswer: { destination: '+33140009999', forwardToVoiceMail: true, callingSearchSpaceName: 'Paris-CSS' },
    },
    meta: {
      model_type: 'relation/LineRelation',
      pkid: 'a'.repeat(24),
      hierarchy: 'sys.hcs.Telco.Acme.Paris',
      tags,
      version_tag: versionTag,
      schema_version: '0.2.2',
      references: {
        self: [{ pkid: 'a'.repeat(24), href: LINE }],
        parent: [{ pkid: 'n'.repeat(24), href: `/api/data/HierarchyNode/${'n'.repeat(24)}/` }],
        device: [{ pkid: 'd'.repeat(24), href: `/api/device/cucm/Line/${'d'.repeat(24)}/` }],
        children: [],
        owner: [],
      },
    },
  };
}

/** The fake service plus a spreadsheet export answered as bytes, as the real one does. */
export class ExportingTransport extends FakeTransport {
  override async request(method: string, path: string, options: TransportRequestOptions = {}): Promise<TransportAnswer> {
    if (method === 'GET' && path === `${LINE}export/`) {
      await super.request(method, path, options);
      return {
        status: 200,
        headers: {
          'content-type': XLSX_TYPE,
          'content-disposition': 'attachment; filename="relation_LineRelation_exportedsheet_formatted_20260101_101010.xlsx"',
        },
        body: new Uint8Array([0x50, 0x4b, 3, 4]),
      };
    }
    return super.request(method, path, options);
  }
}
