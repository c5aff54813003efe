import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestService, PARIS, q, type TestService } from './helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

/**
 * Each bad request gets a clear fault in the decisions.md shape, and leaves the store exactly
 * as it was: not a resource row, not even a transaction record, is written.
 */
async function refused(
  method: string,
  url: string,
  body: unknown,
  expected: { status: number; code: string; message: RegExp; field?: string },
): Promise<void> {
  const before = t.snapshot({ withTransactions: true });
  const reply = await t.call(method, url, body);
  expect(reply.status).toBe(expected.status);
  expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(reply.body).toMatchObject({ success: false, http_code: expected.status, code: expected.code });
  expect(reply.body.message).toMatch(expected.message);
  if (expected.field) expect(reply.body.details.map((d: { field: string }) => d.field)).toContain(expected.field);
  expect(t.snapshot({ withTransactions: true })).toBe(before);
}

const lines = `/api/relation/LineRelation/${q(PARIS)}`;

describe('bad input', () => {
  it('unknown model: 404', () =>
    refused(
      'POST',
      `/api/relation/NoSuchThing/${q(PARIS)}`,
      { data: {} },
      { status: 404, code: 'not-found', message: /Unknown model type relation\/NoSuchThing/ },
    ));

  it('unknown field: 400 naming it', () =>
    refused(
      'POST',
      lines,
      { data: { pattern: '+33140001077', colour: 'blue' } },
      { status: 400, code: 'unknown-field', message: /colour/, field: 'colour' },
    ));

  it('unknown nested field: 400 naming its path', () =>
    refused(
      'POST',
      lines,
      { data: { pattern: '+33140001077', callForwardAll: { target: '1' } } },
      { status: 400, code: 'unknown-field', message: /callForwardAll\.target/ },
    ));

  it('wrong type: 400', () =>
    refused(
      'POST',
      lines,
      { data: { pattern: '+33140001077', rejectAnonymousCall: 'yes' } },
      { status: 400, code: 'validation-failed', message: /rejectAnonymousCall: 'yes' is not true or false/, field: 'rejectAnonymousCall' },
    ));

  it('a number given as a JSON number where text is expected: 400', () =>
    refused(
      'POST',
      lines,
      { data: { pattern: 33140001077 } },
      { status: 400, code: 'validation-failed', message: /pattern: '33140001077' is not text/ },
    ));

  it('missing required field: 400', () =>
    refused(
      'POST',
      lines,
      { data: { alertingName: 'No Number' } },
      { status: 400, code: 'validation-failed', message: /pattern\) is required/ },
    ));

  it('a value outside the choices: 400', () =>
    refused(
      'POST',
      `/api/data/HierarchyNode/${q(PARIS)}`,
      { data: { name: 'X', node_type: 'Galaxy' } },
      { status: 400, code: 'validation-failed', message: /'Galaxy' is not one of the allowed values: Root, Provider/ },
    ));

  it('limit 0 and 2001: 400', async () => {
    await refused('GET', `/api/relation/LineRelation/${q(PARIS, '&limit=0')}`, undefined, {
      status: 400,
      code: 'bad-parameter',
      message: /limit must be a whole number from 1 to 2000/,
    });
    await refused('GET', `/api/relation/LineRelation/${q(PARIS, '&limit=2001')}`, undefined, {
      status: 400,
      code: 'bad-parameter',
      message: /limit/,
    });
  });

  it('filter_field outside summary_attrs: 400', () =>
    refused('GET', `/api/relation/LineRelation/${q(PARIS, '&filter_field=description&filter_text=x')}`, undefined, {
      status: 400,
      code: 'bad-parameter',
      message: /filter_field 'description' is not a summary attribute/,
    }));

  it('bad order_by, direction, traversal and filter_condition: 400', async () => {
    for (const extra of [
      '&order_by=callForwardAll',
      '&direction=up',
      '&traversal=sideways',
      '&filter_field=pattern&filter_condition=near&filter_text=1',
      '&count=maybe',
      '&format=xml',
    ]) {
      await refused('GET', `/api/relation/LineRelation/${q(PARIS, extra)}`, undefined, {
        status: 400,
        code: 'bad-parameter',
        message: /./,
      });
    }
  });

  it('malformed JSON: 400', () =>
    refused('POST', lines, '{"data": {"pattern": "+331400', { status: 400, code: 'malformed-json', message: /not valid JSON/ }));

  it('a body that is not {data: ...}: 400', () =>
    refused('POST', lines, { pattern: '+33140001077' }, { status: 400, code: 'validation-failed', message: /\{"data": \{\.\.\.\}\}/ }));

  it('a body over 10 MB: 413', () =>
    refused('POST', lines, JSON.stringify({ data: { pattern: '1', description: 'x'.repeat(10 * 1024 * 1024) } }), {
      status: 413,
      code: 'too-large',
      message: /10 MB/,
    }));

  it('unknown hierarchy: 404', () =>
    refused(
      'POST',
      `/api/relation/LineRelation/${q('sys.hcs.Nowhere')}`,
      { data: { pattern: '+33140001077' } },
      { status: 404, code: 'hierarchy-not-found', message: /sys\.hcs\.Nowhere was not found/ },
    ));

  it('missing hierarchy: 400', async () => {
    await refused(
      'POST',
      '/api/relation/LineRelation/',
      { data: { pattern: '+33140001077' } },
      { status: 400, code: 'hierarchy-required', message: /hierarchy parameter is required/ },
    );
    await refused('GET', '/api/relation/LineRelation/', undefined, { status: 400, code: 'hierarchy-required', message: /hierarchy/ });
  });

  it('an unknown instance: 404 for GET, PUT and DELETE', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      await refused(method, '/api/relation/LineRelation/0123456789abcdef01234567/', method === 'PUT' ? { data: {} } : undefined, {
        status: 404,
        code: 'not-found',
        message: /was not found/,
      });
    }
  });

  it('a method a path does not take: 405', () =>
    refused('PATCH', lines, undefined, { status: 405, code: 'method-not-allowed', message: /PATCH is not allowed/ }));
});
