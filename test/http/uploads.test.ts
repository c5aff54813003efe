import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, basicAuth } from './api-client';
import { cleanupServers, startServe, tempDataDir, type ServeProcess } from './serve-process';

/** Uploads over real HTTP: a multipart form as a browser or curl sends it, with the 50 MB limit. */
let server: ServeProcess;
beforeAll(async () => {
  server = await startServe({ dataDir: tempDataDir() });
});
afterAll(cleanupServers);

async function upload(bytes: Uint8Array, name = 'lines.xlsx'): Promise<Response> {
  const form = new FormData();
  form.append('uploadedfile', new Blob([bytes]), name);
  return fetch(new URL('/api/uploadfiles/?hierarchy=sys', server.url), {
    method: 'POST',
    headers: { authorization: basicAuth(ADMIN) },
    body: form,
  });
}

describe('uploads over HTTP', () => {
  it('takes a spreadsheet larger than the 10 MB JSON limit, up to 50 MB', async () => {
    const answer = await upload(new Uint8Array(12 * 1024 * 1024));
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { uploadedfiles: { name: string; id: string }[] };
    expect(body.uploadedfiles[0].name).toBe('lines.xlsx');
  });

  it('refuses more than 50 MB with 413, and a 12 MB JSON body still with 413', async () => {
    const big = await upload(new Uint8Array(50 * 1024 * 1024 + 1024));
    expect(big.status).toBe(413);
    const json = await fetch(new URL('/api/data/Countries/?hierarchy=sys', server.url), {
      method: 'POST',
      headers: { authorization: basicAuth(ADMIN), 'content-type': 'application/json' },
      body: JSON.stringify({ data: { country_name: 'x'.repeat(12 * 1024 * 1024), iso_code: 'QQ' } }),
    });
    expect(json.status).toBe(413);
  });
});
