import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestService, q, type TestService } from './helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService();
});
afterAll(() => t.close());

describe('internal errors', () => {
  it('answer 500 without stack, SQL or path, and log the details under a request id', async () => {
    const created = await t.call('POST', `/api/data/Countries/${q('sys')}`, { data: { country_name: 'Norway', iso_code: 'NO' } });
    // A row damaged outside the service (summary indexes refuse bad JSON in data, so links).
    t.service.store.db.prepare('UPDATE instances SET links = ? WHERE pkid = ?').run('{not json', created.body.pkid);
    const reply = await t.get(`/api/data/Countries/${created.body.pkid}/`);
    expect(reply.status).toBe(500);
    expect(reply.body).toMatchObject({ success: false, http_code: 500, code: 'internal-error' });
    const reference = /reference ([0-9a-f]{12})/.exec(reply.body.message)?.[1];
    expect(reference).toBeDefined();
    expect(reply.text).not.toMatch(/SELECT|instances|\/work\/|node_modules|\.ts:|at .*\(/);
    const logged = t.logs.find((line) => line.startsWith(`[${reference}]`));
    expect(logged).toMatch(/SyntaxError/);
    expect(logged).toMatch(/\.ts:\d+|\.js:\d+/);
  });
});
