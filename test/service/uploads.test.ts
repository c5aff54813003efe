import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestService, PARIS, q, type TestService } from './helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

const BOUNDARY = 'workstation-test-boundary';
const multipart = (parts: { field: string; filename: string; bytes: Buffer }[]): Buffer =>
  Buffer.concat([
    ...parts.flatMap((part) => [
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      part.bytes,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${BOUNDARY}--\r\n`),
  ]);
const FORM = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
const upload = (body: Buffer | string, headers: Record<string, string> = FORM, hierarchy = PARIS) =>
  t.call('POST', `/api/uploadfiles/${q(hierarchy)}`, body instanceof Buffer ? new Uint8Array(body) : body, headers);
const uploadsFolder = (): string => t.service.store.uploads.folder;
const adminPkid = (): string => t.service.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0].pkid;

describe('uploads', () => {
  it('stores a file and answers its name and id; the bytes are kept exactly', async () => {
    const bytes = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 1, 2, 255]);
    const reply = await upload(multipart([{ field: 'uploadedfile', filename: 'lines.xlsx', bytes }]));
    expect(reply.status).toBe(200);
    expect(reply.body.uploadedfiles).toEqual([{ name: 'lines.xlsx', id: expect.stringMatching(/^[0-9a-f]{24}$/) }]);
    const id = reply.body.uploadedfiles[0].id;
    expect(readFileSync(t.service.store.uploads.pathOf(id))).toEqual(bytes);
  });

  it("keeps both files of the same name, and a look-up by name finds the sender's newest", async () => {
    const first = await upload(multipart([{ field: 'uploadedfile', filename: 'same.xlsx', bytes: Buffer.from('first') }]));
    const second = await upload(multipart([{ field: 'uploadedfile', filename: 'same.xlsx', bytes: Buffer.from('second') }]));
    expect(first.body.uploadedfiles[0].id).not.toBe(second.body.uploadedfiles[0].id);
    expect(t.service.store.uploads.newestOwned('same.xlsx', adminPkid())?.id).toBe(second.body.uploadedfiles[0].id);
    expect(t.service.store.uploads.get(first.body.uploadedfiles[0].id)?.name).toBe('same.xlsx');
  });

  it('never uses a file name as a path', async () => {
    const reply = await upload(multipart([{ field: 'uploadedfile', filename: '../../../etc/evil.xlsx', bytes: Buffer.from('x') }]));
    expect(reply.body.uploadedfiles[0].name).toBe('evil.xlsx');
    expect(readdirSync(uploadsFolder())).toContain(reply.body.uploadedfiles[0].id);
    expect(readdirSync(uploadsFolder()).some((entry) => entry.includes('evil'))).toBe(false);
  });

  it('refuses what is not an upload, and stores nothing', async () => {
    const filesBefore = readdirSync(uploadsFolder()).sort();
    const before = t.snapshot({ withTransactions: true });
    const notMultipart = await upload('{"file": 1}', { 'content-type': 'application/json' });
    expect(notMultipart.status).toBe(415);
    expect(notMultipart.body.code).toBe('unsupported-media-type');
    const noPart = await upload(multipart([{ field: 'other', filename: 'a.xlsx', bytes: Buffer.from('x') }]));
    expect(noPart.status).toBe(400);
    const broken = await upload('--nope\r\ngarbage', FORM);
    expect(broken.status).toBe(400);
    const tooLarge = await upload(multipart([{ field: 'uploadedfile', filename: 'big.xlsx', bytes: Buffer.alloc(50 * 1024 * 1024 + 1) }]));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.message).toMatch(/50 MB/);
    expect(readdirSync(uploadsFolder()).sort()).toEqual(filesBefore);
    expect(t.snapshot({ withTransactions: true })).toBe(before);
  });

  it('needs the bulk load permission at a reachable node', async () => {
    await t.call('POST', `/api/data/User/${q(PARIS)}`, {
      data: { username: 'upload.operator', role: 'operator', password: 'operator-pw-1' },
    });
    const operator = { ...FORM, authorization: `Basic ${Buffer.from('upload.operator:operator-pw-1').toString('base64')}` };
    const denied = await upload(multipart([{ field: 'uploadedfile', filename: 'x.xlsx', bytes: Buffer.from('x') }]), operator);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toMatch(/^Permission Denied/);
  });
});
