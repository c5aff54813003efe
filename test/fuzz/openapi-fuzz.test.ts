import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument, Operation, Parameter } from '../../main/service/openapi/openapi-document';
import { ADMIN, ApiClient } from '../http/api-client';
import { cleanupServers, startServe, tempDataDir, type ServeProcess } from '../http/serve-process';
import { mismatch, type Schema } from './json-schema-check';

/**
 * Property-based fuzzing driven by the published description (issue 30, build 7): requests are
 * generated from /api/openapi.json's own paths, parameters and body schemas (fast-check), sent to
 * server mode over real HTTP, and each answer must be described: never a 5xx, a status the
 * operation lists, a JSON body that its schema takes. Requests that break the description (a
 * parameter outside its enum or range, a body field of the wrong type) must be refused with a 4xx.
 * `npm run fuzz` runs FUZZ_RUNS requests (default 3,000, a few minutes); the suite runs 300.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const PARIS = 'sys.hcs.Telco.Acme.Paris';

let server: ServeProcess;
let api: ApiClient;
let doc: OpenApiDocument;
let workbookId = '';

beforeAll(async () => {
  server = await startServe({ dataDir: tempDataDir(), seed: 'demo' });
  api = new ApiClient(server.url, ADMIN);
  doc = (await api.get<OpenApiDocument>('/api/openapi.json')).body;
  const made = await api.post<{ workbook: { id: string } }>('/workstation/workbooks/', {
    from: 'export',
    model_type: 'device/cucm/Phone',
    hierarchy: PARIS,
  });
  expect(made.status, made.text).toBe(202);
  workbookId = made.body.workbook.id;
}, 60_000);
afterAll(cleanupServers);

const schemas = (): Record<string, Schema> => doc.components.schemas as Record<string, Schema>;
const resolve = (schema: Schema): Schema =>
  typeof schema.$ref === 'string' ? resolve(schemas()[schema.$ref.split('/').at(-1) as string]) : schema;

/** A value the schema takes (small: a fuzz run, not a load). */
function valid(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const type = Array.isArray(s.type) ? (s.type as string[])[0] : (s.type as string | undefined);
  if (type === 'integer')
    return fc.integer({
      min: typeof s.minimum === 'number' ? s.minimum : -5,
      max: typeof s.maximum === 'number' ? Math.min(s.maximum, 5000) : 5000,
    });
  if (type === 'boolean') return fc.boolean();
  if (type === 'string' && typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern, 'u'));
  if (type === 'string')
    return s.format === 'uuid' ? fc.uuid() : fc.string({ minLength: typeof s.minLength === 'number' ? s.minLength : 0, maxLength: 40 });
  if (type === 'array')
    return fc.array(valid((s.items as Schema | undefined) ?? {}, depth + 1), { minLength: Number(s.minItems ?? 0), maxLength: 3 });
  if (type === 'object' && depth < 3) {
    const properties = (s.properties as Record<string, Schema> | undefined) ?? {};
    const required = (s.required as string[] | undefined) ?? [];
    return fc.record(Object.fromEntries(Object.entries(properties).map(([name, sub]) => [name, valid(sub, depth + 1)])), {
      requiredKeys: required.filter((name) => name in properties),
    });
  }
  return fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 10 }), fc.boolean());
}

/** A query value the parameter's schema refuses (enums and integers: texts are free). */
function breaking(parameter: Parameter): fc.Arbitrary<string> | undefined {
  const s = resolve(parameter.schema as Schema);
  if (Array.isArray(s.enum)) return fc.constantFrom('maybe', 'TRUE', '2', 'x-y').filter((value) => !(s.enum as unknown[]).includes(value));
  if (typeof s.pattern === 'string') {
    const pattern = new RegExp(s.pattern, 'u');
    return fc.constantFrom('maybe', 'yes', '2', 'on', 'x-y').filter((value) => !pattern.test(value));
  }
  if (s.type === 'integer') {
    const out = ['abc', '1.5', '1e3x'];
    if (typeof s.minimum === 'number') out.push(String(s.minimum - 1));
    if (typeof s.maximum === 'number') out.push(String(s.maximum + 1));
    return fc.constantFrom(...out);
  }
  return undefined;
}

interface FuzzRequest {
  method: string;
  path: string;
  operation: Operation;
  url: string;
  body?: unknown;
  /** What in it breaks the description, if anything. */
  breaks?: string;
}

function requestArbitrary(): fc.Arbitrary<FuzzRequest> {
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation: operation as Operation })),
  );
  return fc.constantFrom(...operations).chain(({ path, method, operation }) => {
    const parameters = operation.parameters ?? [];
    const pathParams = parameters.filter((parameter) => parameter.in === 'path');
    const query = parameters.filter((parameter) => parameter.in === 'query');
    const pathValues = fc.record(
      Object.fromEntries(
        pathParams.map((parameter) => [
          parameter.name,
          parameter.name === 'id' && method !== 'DELETE'
            ? fc.oneof(fc.constant(workbookId), fc.uuid())
            : valid(parameter.schema as Schema).map(String),
        ]),
      ),
    );
    const queryValues = fc.record(
      Object.fromEntries(
        query.map((parameter) => [
          parameter.name,
          parameter.name === 'hierarchy'
            ? fc.constantFrom(PARIS, 'sys.hcs.Telco.Acme', 'sys')
            : valid(parameter.schema as Schema).map(String),
        ]),
      ),
      { requiredKeys: [] },
    );
    const breakable = query.filter((parameter) => breaking(parameter) !== undefined);
    const broken =
      breakable.length === 0
        ? fc.constant(undefined)
        : fc.option(
            fc
              .constantFrom(...breakable)
              .chain((parameter) => (breaking(parameter) as fc.Arbitrary<string>).map((value) => [parameter.name, value] as const)),
            { freq: 3 },
          );
    const bodySchema = operation.requestBody?.content['application/json']?.schema as Schema | undefined;
    const body = bodySchema ? valid(bodySchema) : fc.constant(undefined);
    return fc.tuple(pathValues, queryValues, broken, body).map(([pathValue, queryValue, brokenParam, bodyValue]) => {
      let url = path;
      for (const [name, value] of Object.entries(pathValue)) url = url.replace(`{${name}}`, encodeURIComponent(String(value)));
      const search = new URLSearchParams(Object.entries(queryValue).map(([name, value]): [string, string] => [name, String(value)]));
      if (brokenParam) search.set(brokenParam[0], brokenParam[1]);
      const text = search.toString();
      return {
        method,
        path,
        operation,
        url: text ? `${url}?${text}` : url,
        body: bodyValue,
        breaks: brokenParam ? `${brokenParam[0]}=${brokenParam[1]}` : undefined,
      };
    });
  });
}

describe('requests generated from the published description', () => {
  it(`${RUNS} requests: no 5xx, no answer outside the description, nothing that breaks it accepted`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArbitrary(), async (request) => {
        const reply = await api.call(request.method, request.url, request.body === undefined ? {} : { json: request.body });
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        const where = `${request.method} ${request.url} ${JSON.stringify(request.body)?.slice(0, 200)} -> ${reply.status} ${reply.text.slice(0, 300)}`;
        expect(reply.status, where).toBeLessThan(500);
        const described = request.operation.responses[String(reply.status)];
        expect(described, `status not described: ${where}`).toBeDefined();
        // The answer is one of the types described for its status (a report may be JSON, CSV or .xlsx); JSON matches its schema.
        const type = (reply.headers.get('content-type') ?? '').split(';')[0].trim();
        const types = Object.keys(described.content ?? {});
        if (types.length > 0) expect(types, `content type ${type} not described: ${where}`).toContain(type);
        const schema = described.content?.['application/json']?.schema as Schema | undefined;
        if (schema && type === 'application/json') expect(mismatch(JSON.parse(reply.text), schema, schemas()), where).toBeUndefined();
        if (request.breaks) expect(reply.status, `accepted ${request.breaks}: ${where}`).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    console.log(`fuzz: ${RUNS} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
  }, 900_000);
});
