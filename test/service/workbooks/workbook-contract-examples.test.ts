import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookAnswer, WorkbookCreateRequest, WorkbookEdit, WorkbookInfo } from '../../../main/service/contract/workbook-api';
import { fixture, multipart, upload } from '../bulk-validate-helpers';
import { openTestService, PARIS, type TestService } from '../helpers';
import { settled } from './workbook-helpers';

/**
 * Issue 30, finding 11: the contract said a workbook upload is multipart (the service answers
 * 415) and had no `from: "upload"` variant, the one the README starts with. Each example the
 * README documents for `POST /workstation/workbooks/` and for an edit is written here as the
 * contract's type (so the type checker holds the contract to the README) and sent to the service.
 */
let t: TestService;
const ACME = 'sys.hcs.Telco.Acme';

beforeAll(async () => {
  t = await openTestService({ demo: true });
  expect((await upload(t, 'lines.xlsx', fixture('line-relation-libreoffice.xlsx'), PARIS)).status).toBe(200);
});
afterAll(() => t.close());

async function created(request: WorkbookCreateRequest): Promise<WorkbookInfo> {
  const reply = await t.call('POST', '/workstation/workbooks/', request);
  expect(reply.status, reply.text).toBe(202);
  return settled(t, (reply.body as WorkbookAnswer).workbook.id);
}

describe("the README's workbook examples, sent through the contract's types", () => {
  it('stages each documented starting point: an upload, a template, an export by hrefs and by filter, a search', async () => {
    const phones = await t.get(`/api/device/cucm/Phone/?hierarchy=${encodeURIComponent(PARIS)}&limit=2`);
    const hrefs = (phones.body as { resources: { meta: { href: string } }[] }).resources.map((resource) => resource.meta.href);
    const examples: WorkbookCreateRequest[] = [
      { from: 'upload', file: 'lines.xlsx', hierarchy: PARIS },
      {
        from: 'template',
        model_type: 'relation/LineRelation',
        hierarchy: ACME,
        template_name: 'Acme Line Defaults',
        policy_name: 'Acme Line Form',
      },
      { from: 'export', model_type: 'device/cucm/Phone', hierarchy: PARIS, hrefs },
      {
        from: 'export',
        model_type: 'device/cucm/Phone',
        hierarchy: PARIS,
        filter: { filter_field: 'name', filter_condition: 'startswith', filter_text: 'SEP00' },
      },
      { from: 'search', query: 'relation/LineRelation with pattern startswith +331', hierarchy: PARIS },
    ];
    for (const example of examples) {
      const info = await created(example);
      expect(info.state, `${example.from}: ${info.problem ?? ''}`).not.toBe('failed');
      expect(info.sheets.length).toBeGreaterThan(0);
    }
  });

  it('takes JSON only: the same upload request sent as multipart is 415, as the contract now says', async () => {
    const reply = await t.call('POST', '/workstation/workbooks/', multipart('lines.xlsx', fixture('line-relation-libreoffice.xlsx')), {
      'content-type': 'multipart/form-data; boundary=bulk-validate-boundary',
    });
    expect(reply.status).toBe(415);
  });

  it('applies the documented edits, each written as a WorkbookEdit', async () => {
    let info = await created({ from: 'upload', file: 'lines.xlsx', hierarchy: PARIS });
    const first = await t.get(`/workstation/workbooks/${info.id}/sheets/0/rows/?limit=1`);
    const row = (first.body as { rows: { id: number }[] }).rows[0].id;
    const column = info.sheets[0].columns[1].id;
    const edits: WorkbookEdit[] = [
      { op: 'set', sheet: 0, cells: [{ row_id: row, column_id: column, value: '+33140001060' }] },
      { op: 'paste', sheet: 0, row_id: row, column_id: column, tsv: '+33140001061' },
      { op: 'insert_rows', sheet: 0, at: 0, count: 1 },
      { op: 'replace', find: '+3314', replace: '+3315', regex: false, match_case: false, within: { sheet: 0 } },
    ];
    for (const edit of edits) {
      const reply = await t.call('POST', `/workstation/workbooks/${info.id}/edits/`, { revision: info.revision, edit });
      expect(reply.status, `${edit.op}: ${reply.text}`).toBe(200);
      info = await settled(t, info.id);
    }
  });
});
