import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME, BASIC, openTestService, q, type Reply, type TestService } from './helpers';

/**
 * Issue 11, finding 4: a write with Basic credentials was accepted as text/plain or form encoded
 * (what a page's <form> can post with the credentials the browser cached), and
 * /noninteractivelogin/ took a form-encoded body from Origin http://evil.example and set the
 * session cookies. JSON endpoints now take application/json only, and a write from a foreign
 * Origin is refused.
 */
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

const NODE_BODY = JSON.stringify({ data: { name: 'Planted', node_type: 'Site' } });
const HOST = { host: '127.0.0.1:7080' };

/** A request exactly as sent: only the headers given (no JSON type added). */
async function raw(method: string, url: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  const response = await t.service.handle({ method, url, headers, body });
  const text = typeof response.body === 'string' ? response.body : Buffer.from(response.body).toString('utf8');
  return { status: response.status, headers: response.headers, text, body: text.startsWith('{') ? JSON.parse(text) : undefined };
}

describe('writes a cross-site page could make', () => {
  it('refuses the text/plain and the form-encoded write with 415, and stores nothing', async () => {
    const before = t.snapshot({ withTransactions: true });
    const url = `/api/data/HierarchyNode/${q(ACME)}`;
    const plain = await raw('POST', url, { authorization: BASIC, 'content-type': 'text/plain;charset=UTF-8' }, NODE_BODY);
    expect(plain.body).toMatchObject({ success: false, http_code: 415, code: 'unsupported-media-type' });
    const form = await raw('POST', url, { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' }, `${NODE_BODY}=`);
    expect([form.status, form.body.code]).toEqual([415, 'unsupported-media-type']);
    const untyped = await raw('POST', url, { authorization: BASIC }, NODE_BODY);
    expect(untyped.status).toBe(415);
    const multipart = await raw('POST', url, { authorization: BASIC, 'content-type': 'multipart/form-data; boundary=x' }, NODE_BODY);
    expect(multipart.status).toBe(415);
    expect(t.snapshot({ withTransactions: true })).toBe(before);
  });

  it('refuses a JSON write with Basic credentials from a foreign Origin, and takes one from its own', async () => {
    const before = t.snapshot({ withTransactions: true });
    const url = `/api/data/Countries/${q('sys')}`;
    const body = JSON.stringify({ data: { country_name: 'Origin Land', iso_code: 'OL' } });
    const json = { authorization: BASIC, 'content-type': 'application/json', ...HOST };
    const foreign = await raw('POST', url, { ...json, origin: 'http://evil.example' }, body);
    expect(foreign.body).toMatchObject({ success: false, http_code: 403, code: 'csrf-failed' });
    const opaque = await raw('POST', url, { ...json, origin: 'null' }, body);
    expect(opaque.status).toBe(403);
    const otherPort = await raw('DELETE', `/api/data/Countries/${'0'.repeat(24)}/`, {
      authorization: BASIC,
      ...HOST,
      origin: 'http://127.0.0.1:9999',
    });
    expect(otherPort.status).toBe(403);
    expect(t.snapshot({ withTransactions: true })).toBe(before);
    const own = await raw('POST', url, { ...json, origin: 'http://127.0.0.1:7080' }, body);
    expect(own.status).toBe(200);
    // Reads are not writes: a foreign page cannot read the answer anyway.
    expect((await raw('GET', url, { authorization: BASIC, ...HOST, origin: 'http://evil.example' })).status).toBe(200);
  });

  it('refuses the form-encoded login from Origin http://evil.example and sets no cookie; the JSON login from the own origin works', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded', ...HOST };
    const evil = await raw(
      'POST',
      '/noninteractivelogin/',
      { ...form, origin: 'http://evil.example' },
      'username=admin&password=test-admin-password',
    );
    expect(evil.body).toMatchObject({ success: false, http_code: 403, code: 'csrf-failed' });
    expect(evil.headers['set-cookie']).toBeUndefined();
    const foreignJson = await raw(
      'POST',
      '/noninteractivelogin/',
      { 'content-type': 'application/json', ...HOST, origin: 'http://evil.example' },
      '{"username":"admin","password":"test-admin-password"}',
    );
    expect([foreignJson.status, foreignJson.headers['set-cookie']]).toEqual([403, undefined]);
    const formHere = await raw('POST', '/noninteractivelogin/', form, 'username=admin&password=test-admin-password');
    expect([formHere.status, formHere.body.code, formHere.headers['set-cookie']]).toEqual([415, 'unsupported-media-type', undefined]);
    const own = await raw(
      'POST',
      '/noninteractivelogin/',
      { 'content-type': 'application/json; charset=utf-8', ...HOST, origin: 'http://127.0.0.1:7080' },
      '{"username":"admin","password":"test-admin-password"}',
    );
    expect(own.status).toBe(200);
    expect(own.headers['set-cookie']).toHaveLength(2);
  });

  it('refuses a session write from a foreign Origin even with the right CSRF token', async () => {
    const login = await raw(
      'POST',
      '/noninteractivelogin/',
      { 'content-type': 'application/json' },
      '{"username":"admin","password":"test-admin-password"}',
    );
    const cookie = (login.headers['set-cookie'] as string[]).map((line) => line.split(';')[0]).join('; ');
    const token = String(login.headers['x-csrftoken']);
    const before = t.snapshot({ withTransactions: true });
    const body = JSON.stringify({ data: { country_name: 'Session Land', iso_code: 'SL' } });
    const session = { cookie, 'x-csrftoken': token, 'content-type': 'application/json', ...HOST };
    const foreign = await raw('POST', `/api/data/Countries/${q('sys')}`, { ...session, origin: 'http://evil.example' }, body);
    expect([foreign.status, foreign.body.code]).toEqual([403, 'csrf-failed']);
    expect(t.snapshot({ withTransactions: true })).toBe(before);
    expect((await raw('POST', `/api/data/Countries/${q('sys')}`, { ...session, origin: 'http://127.0.0.1:7080' }, body)).status).toBe(200);
  });

  it('never asks a request without a body for a content type', async () => {
    const made = await t.call('POST', `/api/data/Countries/${q('sys')}`, { data: { country_name: 'Short Lived', iso_code: 'SH' } });
    const pkid = made.body.pkid as string;
    expect((await raw('PATCH', `/api/data/Countries/${pkid}/+tag/?tag=bodyless`, { authorization: BASIC })).status).toBe(200);
    expect((await raw('DELETE', `/api/data/Countries/${pkid}/`, { authorization: BASIC })).status).toBe(200);
    expect((await raw('POST', `/api/data/Countries/export/${q('sys')}`, { authorization: BASIC })).status).toBe(200);
  });
});
