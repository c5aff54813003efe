import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetSpec } from '../fixtures/fixture-specs';
import { basicAuth, compactWorkbook, line, LINE_HEADER, upload, validate, workbookOf } from './bulk-validate-helpers';
import { LONDON, openTestService, PARIS, q, type Reply, type TestService } from './helpers';

/**
 * Issue 11, finding 6, in sheets: a Paris site admin validating or bulk loading a workbook whose
 * rows name `sys.hcs.Telco.Acme.London` got `out-of-reach` naming London, and for
 * `sys.hcs.Telco.Acme.NoSuchSite` got `hierarchy-not-found`; a load's row failed with a 403 for
 * one and a 404 for the other. Outside the caller's reach both now get one answer, which names
 * only what the caller itself wrote, and no message names a path the caller may not see.
 */
let t: TestService;
const parisAdmin = basicAuth('reach.admin', 'reach-admin-pw');
const MADE_UP = 'sys.hcs.Telco.Acme.NoSuchSite';
const UNKNOWN_PKID = '0123456789abcdef01234567';
let londonPkid: string;

beforeAll(async () => {
  t = await openTestService({ demo: true });
  const made = await t.call('POST', `/api/data/User/${q(PARIS)}`, {
    data: { username: 'reach.admin', role: 'admin', password: 'reach-admin-pw' },
  });
  if (made.status !== 200) throw new Error(`setup: ${made.text}`);
  const london = t.service.store.nodes.getByPath(LONDON);
  if (!london) throw new Error('setup: no London');
  londonPkid = london.pkid;
});
afterAll(() => t.close());

/** A reply as the caller can compare two of them: ids, times and the hierarchy it wrote made neutral. */
function neutral(reply: Reply | unknown, written: string): string {
  const text = typeof reply === 'object' && reply !== null && 'text' in reply ? (reply as Reply).text : JSON.stringify(reply);
  return (
    text
      .split(written)
      .join('<written>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?/g, '<time>')
      // A row's new pkid and its log ids differ from one load to the next.
      .replace(/\b[0-9a-f]{24}\b/g, '<pkid>')
      .replace(/log_id(":"|=)\d+/g, 'log_id$1<n>')
  );
}

/** The Paris admin's validation of a one-sheet workbook; the same file name each time. */
async function validated(sheet: SheetSpec): Promise<Reply> {
  expect((await upload(t, 'reach-probe.xlsx', await workbookOf([sheet]), PARIS, parisAdmin)).status).toBe(200);
  const reply = await validate(t, 'reach-probe.xlsx', PARIS, parisAdmin);
  expect(reply.status, reply.text).toBe(200);
  return reply;
}

const inColumn = (hierarchy: string): SheetSpec => ({
  name: 'LineRelation',
  rows: [LINE_HEADER, line({ hierarchy, pattern: '+33140009001', name: 'Probe' })],
});
const inDirective = (hierarchy: string): SheetSpec => ({
  name: 'Lines',
  rows: [[`entity: relation/LineRelation; hierarchy: ${hierarchy}`], ['pattern', 'alertingName'], [], [], ['+33140009002', 'Probe']],
});

describe("validation outside the caller's reach", () => {
  const cases: [string, (hierarchy: string) => SheetSpec, () => [string, string]][] = [
    ['the Hierarchy Node column', inColumn, () => [LONDON, MADE_UP]],
    ['the directive in A1', inDirective, () => [LONDON, MADE_UP]],
    ['a pkid in the Hierarchy Node column', inColumn, () => [londonPkid, UNKNOWN_PKID]],
  ];
  for (const [where, sheet, names] of cases) {
    it(`gives the same issues for London and for a made-up site named in ${where}`, async () => {
      const [london, madeUp] = names();
      const before = t.snapshot({ withTransactions: true });
      const forLondon = await validated(sheet(london));
      const forMadeUp = await validated(sheet(madeUp));
      expect(neutral(forMadeUp, madeUp)).toBe(neutral(forLondon, london));
      expect(forLondon.body.sheets[0].issues.map((found: { code: string }) => found.code)).toContain('out-of-reach');
      expect(neutral(forLondon, london)).not.toMatch(/London|NoSuchSite/);
      expect(t.snapshot({ withTransactions: true })).toBe(before);
    });
  }

  it("still reports a made-up node within the caller's reach as not found", async () => {
    const reply = await validated(inColumn(`${PARIS}.Nowhere`));
    expect(reply.body.sheets[0].issues.map((found: { code: string }) => found.code)).toContain('hierarchy-not-found');
  });

  it("never names London when a row's target or key lies there", async () => {
    const lines = (await t.get(`/api/relation/LineRelation/${q(LONDON, '&limit=1')}`)).body.resources;
    const phones = (await t.get(`/api/device/cucm/Phone/${q(LONDON, '&limit=1')}`)).body.resources;
    const modify = await validated({
      name: 'LineRelation',
      rows: [LINE_HEADER, line({ action: 'modify', pkid: lines[0].meta.pkid, name: 'Moved' })],
    });
    expect(modify.body.sheets[0].issues.map((found: { code: string }) => found.code)).toContain('out-of-reach');
    expect(modify.text).not.toMatch(/London/);
    // A phone's name is unique across the tree: the clash is reported, not where it is.
    const phoneName = phones[0].data.name as string;
    const clash = await validated({
      name: 'Phone',
      rows: [
        ['# Hierarchy Node', 'name', 'product', 'protocol'],
        [PARIS, phoneName, 'Cisco 8845', 'SIP'],
      ],
    });
    expect(clash.body.sheets[0].issues.map((found: { code: string }) => found.code)).toContain('duplicate-in-store');
    expect(clash.text).not.toMatch(/London/);
    const posted = await t.call(
      'POST',
      `/api/device/cucm/Phone/${q(PARIS)}`,
      { data: { name: phoneName, product: 'Cisco 8845', protocol: 'SIP' } },
      parisAdmin,
    );
    expect([posted.status, posted.body.code]).toEqual([409, 'conflict']);
    expect(posted.text).not.toMatch(/London/);
    expect(posted.text).not.toContain(phones[0].meta.pkid);
    // Where the clash lies on the caller's own branch it is still named, to help fix it.
    const own = (await t.get(`/api/device/cucm/Phone/${q(PARIS, '&limit=1')}`)).body.resources[0].data.name as string;
    const ownClash = await t.call(
      'POST',
      `/api/device/cucm/Phone/${q(PARIS)}`,
      { data: { name: own, product: 'Cisco 8845', protocol: 'SIP' } },
      parisAdmin,
    );
    expect(ownClash.body.message).toContain(`already exists at ${PARIS}`);
  });
});

describe("a write whose context lies outside the caller's reach", () => {
  it('refuses a modify naming London as its context like one naming a made-up site, and changes nothing', async () => {
    const own = (await t.get(`/api/relation/LineRelation/${q(PARIS, '&limit=1')}`)).body.resources[0].meta.pkid as string;
    const before = t.snapshot();
    const put = (hierarchy: string) =>
      t.call('PUT', `/api/relation/LineRelation/${own}/${q(hierarchy)}`, { data: { alertingName: 'Probed' } }, parisAdmin);
    const london = await put(LONDON);
    const madeUp = await put(MADE_UP);
    expect(london.status).toBe(403);
    expect(neutral(madeUp, MADE_UP)).toBe(neutral(london, LONDON));
    expect(london.text).not.toMatch(/London/);
    expect(t.snapshot()).toBe(before);
  });
});

describe("bulk loads outside the caller's reach", () => {
  /** The Paris admin's load of one row at `hierarchy`: its answer, the parent and the row as the admin sees them, and the row's message. */
  async function loaded(hierarchy: string) {
    const bytes = await compactWorkbook('LineRelation', LINE_HEADER, [line({ hierarchy, pattern: '+33140009003', name: 'Probe' })]);
    expect((await upload(t, 'reach-load.xlsx', bytes, PARIS, parisAdmin)).status).toBe(200);
    const answer = await t.call(
      'POST',
      `/api/tool/BulkLoad/${q(PARIS, '&method=bulkload_spreadsheet')}`,
      { bulkload_file: 'reach-load.xlsx', execute_immediately: true },
      parisAdmin,
    );
    expect(answer.status, answer.text).toBe(200);
    const parent = await t.get(answer.body.href, parisAdmin);
    const subHref = parent.body.data.sub_transactions[0].href as string;
    const row = await t.get(subHref, parisAdmin);
    // What the row failed with, as the root admin reads it: the refusal the load met.
    const rowMessage = (await t.get(subHref)).body.data.message as string;
    return { answer, parent, row, rowMessage };
  }

  it('fails a row naming London and one naming a made-up site alike, and changes nothing else', async () => {
    const before = t.snapshot();
    const london = await loaded(LONDON);
    const madeUp = await loaded(MADE_UP);
    expect(london.answer.body.status).toBe('Fail');
    expect(neutral(madeUp.answer, MADE_UP)).toBe(neutral(london.answer, LONDON));
    expect(neutral(madeUp.parent, MADE_UP)).toBe(neutral(london.parent, LONDON));
    expect(neutral(madeUp.row, MADE_UP)).toBe(neutral(london.row, LONDON));
    expect(madeUp.rowMessage).toBe(london.rowMessage);
    expect(london.rowMessage).toMatch(/Permission Denied/);
    expect(london.rowMessage).not.toMatch(/London|NoSuchSite/);
    expect(t.snapshot()).toBe(before);
  });

  it("records a row naming London at the load's own node: London's admins never see the attempt", async () => {
    const made = await t.call('POST', `/api/data/User/${q(LONDON)}`, {
      data: { username: 'london.admin', role: 'admin', password: 'london-admin-pw' },
    });
    expect(made.status, made.text).toBe(200);
    const londonAdmin = basicAuth('london.admin', 'london-admin-pw');
    const { parent } = await loaded(LONDON);
    const row = parent.body.data.sub_transactions[0] as { href: string; transaction_id: string };
    expect((await t.get(row.href, parisAdmin)).body.meta.hierarchy).toBe(PARIS);
    expect((await t.get(row.href, londonAdmin)).status).toBe(403);
    const listed = await t.get(`/api/tool/Transaction/${q(LONDON, '&limit=200')}`, londonAdmin);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(row.transaction_id);
  });

  it("still fails a made-up node within the caller's reach as not found", async () => {
    const inside = await loaded(`${PARIS}.Nowhere`);
    expect(inside.rowMessage).toMatch(/was not found/);
  });
});
