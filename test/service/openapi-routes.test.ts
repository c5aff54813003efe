import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../main/service/openapi/openapi-document';
import { openTestService, PARIS, type TestService } from './helpers';

/**
 * The published description (issue 30, build 7) checked against the routes it describes: it is
 * served at /api/openapi.json, every reference in it resolves, every path and method it lists is
 * answered by a route (never 405 or 5xx, whatever the body), and every other method of those
 * paths is 405 with `Allow`. A route added without its description, or a description left behind
 * by a route, fails here.
 */
let t: TestService;
let doc: OpenApiDocument;
let workbookId: string;
const METHODS = ['get', 'post', 'put', 'delete'] as const;

beforeAll(async () => {
  t = await openTestService({ demo: true });
  const reply = await t.call('GET', '/api/openapi.json');
  expect(reply.status, reply.text).toBe(200);
  doc = reply.body as OpenApiDocument;
  const made = await t.call('POST', '/workstation/workbooks/', { from: 'template', model_type: 'relation/LineRelation', hierarchy: PARIS });
  expect(made.status, made.text).toBe(202);
  workbookId = made.body.workbook.id;
  await t.service.workbooks.settled(workbookId);
});
afterAll(() => t.close());

/** A concrete URL of a templated path: this workbook, sheet 0, an unknown pkid or transaction. */
const urlOf = (path: string): string =>
  path
    .replace('{id}', workbookId)
    .replace('{sheet}', '0')
    .replace('{pkid}', '0123456789abcdef01234567')
    .replace('{transaction_id}', '00000000-0000-4000-8000-000000000000') +
  (path.startsWith('/api/') && path !== '/api/openapi.json' && path !== '/api/whoami/' ? `?hierarchy=${PARIS}` : '');

describe('the published API description', () => {
  it('is OpenAPI 3.1 whose references all resolve', () => {
    expect(doc.openapi).toBe('3.1.0');
    const refs = JSON.stringify(doc).match(/"\$ref":"#\/components\/schemas\/[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(20);
    for (const found of refs) expect(doc.components.schemas).toHaveProperty(found.split('/').at(-1)?.replace('"', '') as string);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(40);
  });

  it('lists exactly the methods each path answers: listed ones reach a route, others are 405 with Allow', async () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        // A body that no operation takes: a listed route answers 4xx for it, never 405.
        const reply = await t.call(method.toUpperCase(), urlOf(path), method === 'get' ? undefined : { nothing: true });
        if (item[method]) {
          expect(reply.status, `${method} ${path}: ${reply.text.slice(0, 200)}`).not.toBe(405);
          expect(reply.status, `${method} ${path}: ${reply.text.slice(0, 200)}`).toBeLessThan(500);
        } else {
          expect(reply.status, `${method} ${path} is not described: ${reply.text.slice(0, 200)}`).toBe(405);
          expect(reply.headers.allow, `${method} ${path}`).toBeTruthy();
        }
      }
    }
  }, 120_000);
});
