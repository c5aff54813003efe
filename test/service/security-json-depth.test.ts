import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeData } from '../../main/service/domain/instance-ops';
import { assertJsonDepth, assertNoPrototypeKeys } from '../../main/service/json-depth';
import { ACME, PARIS, openTestService, q, type TestService } from './helpers';

/**
 * Issue 11, finding 5: a 10,000-level object in a template's `template` field or in a search
 * body answered 500 (the stack overflowed while walking it). JSON deeper than 64 levels is now
 * a 400 before anything walks it.
 */
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

/** `{"a":{"a":...1...}}`, `levels` objects deep, as text (building it as an object would be walked by JSON.stringify). */
const nested = (levels: number): string => `${'{"a":'.repeat(levels - 1)}{"a":1}${'}'.repeat(levels - 1)}`;

describe('deeply nested JSON', () => {
  it('answers 400 for a 10,000-level template field and stores nothing', async () => {
    const before = t.snapshot({ withTransactions: true });
    const body = `{"data": {"name": "Deep", "target_model_type": "relation/LineRelation", "merge_strategy": "merge", "template": ${nested(10_000)}}}`;
    const reply = await t.call('POST', `/api/data/ConfigurationTemplate/${q(ACME)}`, body);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ success: false, http_code: 400, code: 'validation-failed' });
    expect(reply.body.message).toMatch(/deeper than 64 levels/);
    expect(t.snapshot({ withTransactions: true })).toBe(before);
  });

  it('answers 400 for a 10,000-level search body, and for one in an array', async () => {
    const search = await t.call('POST', `/api/tool/Search/${q(ACME)}`, `{"query": "Paris", "extra": ${nested(10_000)}}`);
    expect([search.status, search.body.code]).toEqual([400, 'validation-failed']);
    expect(search.body.message).toMatch(/deeper than 64 levels/);
    const arrays = await t.call('POST', `/api/tool/Search/${q(ACME)}`, `${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expect([arrays.status, arrays.body.code]).toEqual([400, 'validation-failed']);
  });

  it('refuses a deep login body with 400 too', async () => {
    const reply = await t.call('POST', '/noninteractivelogin/', `{"username": "admin", "password": "x", "deep": ${nested(10_000)}}`);
    expect([reply.status, reply.body.code]).toEqual([400, 'validation-failed']);
  });

  it('takes 64 levels, counts only brackets outside strings, and refuses the 65th', () => {
    expect(() => assertJsonDepth(nested(64))).not.toThrow();
    expect(() => assertJsonDepth(nested(65))).toThrow(/deeper than 64 levels/);
    expect(() => assertJsonDepth(`{"text": "${'{['.repeat(500)}\\"{{{"}`)).not.toThrow();
  });

  it('still creates a template with an ordinary nested value', async () => {
    const reply = await t.call('POST', `/api/data/ConfigurationTemplate/${q(ACME)}`, {
      data: {
        name: 'Shallow',
        target_model_type: 'relation/LineRelation',
        merge_strategy: 'merge',
        template: { callForwardAll: { destination: '+33140009999' } },
      },
    });
    expect(reply.status).toBe(200);
  });
});

describe('a key named __proto__', () => {
  // JSON.parse makes it an own property; a copy by assignment would make its value the copy's
  // prototype, so fields read through it (a user's role, say) would pass unseen by any check.
  it('is refused with 400 wherever it stands in a body, and nothing is stored', async () => {
    const before = t.snapshot({ withTransactions: true });
    const bodies = [
      '{"data": {"username": "proto-1", "__proto__": {"role": "admin"}}}',
      '{"username": "proto-2", "__proto__": {"role": "admin"}}',
      '{"data": {"username": "proto-3", "nested": [{"__proto__": {"x": 1}}]}}',
      // An escaped key is the same key once parsed.
      '{"data": {"username": "proto-4", "\\u005f_proto__": {"role": "admin"}}}',
    ];
    for (const body of bodies) {
      const reply = await t.call('POST', `/api/data/User/${q(PARIS)}`, body);
      expect([reply.status, reply.body.code], body).toEqual([400, 'validation-failed']);
      expect(reply.body.message).toMatch(/__proto__/);
    }
    const line = await t.call(
      'POST',
      `/api/relation/LineRelation/${q(PARIS, '&template_name=Acme%20Line%20Defaults')}`,
      '{"pattern": "+33140007777", "__proto__": {"usage": "x"}}',
    );
    expect([line.status, line.body.code]).toEqual([400, 'validation-failed']);
    expect(t.snapshot({ withTransactions: true })).toBe(before);
  });

  it('is looked for in a body of 500,000 hrefs without failing on its size', () => {
    const hrefs = Array.from({ length: 500_000 }, (_, i) => `/api/relation/LineRelation/${String(i).padStart(24, '0')}/`);
    expect(() => assertNoPrototypeKeys({ hrefs })).not.toThrow();
    expect(() => assertNoPrototypeKeys({ hrefs: [...hrefs.slice(0, 10), JSON.parse('{"__proto__": 1}') as never] })).toThrow(/__proto__/);
  });

  it('stays an own field when data is merged (templates, modifies), never the prototype', () => {
    const changes = JSON.parse('{"__proto__": {"role": "admin"}, "name": "x"}') as Record<string, never>;
    const merged = mergeData({ a: 1 }, changes);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.keys(merged)).toEqual(['a', '__proto__', 'name']);
    expect((merged as { role?: string }).role).toBeUndefined();
    const again = mergeData(
      JSON.parse('{"__proto__": {"a": 1}}') as Record<string, never>,
      JSON.parse('{"__proto__": {"b": 2}}') as Record<string, never>,
    );
    expect(Object.getPrototypeOf(again)).toBe(Object.prototype);
    expect(JSON.stringify(again)).toBe('{"__proto__":{"a":1,"b":2}}');
  });
});
