import { describe, expect, it } from 'vitest';
import { boundaryOf, readMultipart } from '../../main/service/uploads/multipart-stream';

/** The upload form read as it arrives: the same parts whatever the sizes of the pieces it came in. */
const BOUNDARY = 'split-boundary';
const FILE = Buffer.from(`PK\x03\x04\r\n--split-boundar\r\n--${'x'.repeat(300)}\r\n\r\n`, 'latin1');
const FORM = Buffer.concat([
  Buffer.from(`preamble\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n`),
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="uploadedfile"; filename="lines.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  ),
  FILE,
  Buffer.from(`\r\n--${BOUNDARY}--\r\nepilogue`),
]);

async function* pieces(bytes: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function read(bytes: Buffer, size: number): Promise<{ field: string; filename?: string; bytes: Buffer }[]> {
  const parts: { field: string; filename?: string; chunks: Buffer[] }[] = [];
  await readMultipart(pieces(bytes, size), BOUNDARY, (start) => {
    const part = { ...start, chunks: [] as Buffer[] };
    parts.push(part);
    return { write: (chunk) => part.chunks.push(Buffer.from(chunk)) };
  });
  return parts.map(({ chunks, ...rest }) => ({ ...rest, bytes: Buffer.concat(chunks) }));
}

describe('multipart read as a stream', () => {
  it('finds the same parts and bytes whatever the size of the pieces', async () => {
    // Pieces shorter and longer than the delimiter (18 bytes), so that it starts in one piece and ends in the next.
    for (const size of [1, 2, 3, 7, 16, 17, 18, 19, 20, 23, 31, 33, 50, 64, 100, 101, FORM.length]) {
      const parts = await read(FORM, size);
      expect(
        parts.map((part) => [part.field, part.filename]),
        `pieces of ${size}`,
      ).toEqual([
        ['note', undefined],
        ['uploadedfile', 'lines.xlsx'],
      ]);
      expect(parts[1].bytes.equals(FILE), `pieces of ${size}`).toBe(true);
      expect(parts[0].bytes.toString()).toBe('hello');
    }
  });

  it('refuses a form cut off before its closing boundary, and one without a boundary', async () => {
    await expect(read(FORM.subarray(0, FORM.length - 20), 50)).rejects.toMatchObject({ httpCode: 400, code: 'bad-upload' });
    expect(() => boundaryOf('multipart/form-data')).toThrow(/no boundary/);
    expect(boundaryOf('multipart/form-data; boundary="quoted b"')).toBe('quoted b');
  });
});
