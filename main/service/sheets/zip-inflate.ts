import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';
import { ApiError } from '../errors';
import { damaged, type ZipEntry } from './zip-directory';

/**
 * Inflates one ZIP entry, chunk by chunk, and checks it is what the directory says: its size and
 * its CRC-32. The declared sizes were already judged safe, so an entry that inflates to more is
 * the one way left past the limit: once it does, nothing more is handed on, and it is inflated on
 * (and thrown away) only far enough to tell a damaged entry, which ends soon after, from a zip
 * bomb, which goes on.
 *
 * Pulled, not pushed: the sheet reader takes the next chunk only when its consumer wants more
 * rows, so a slow consumer holds at most a chunk or two of inflated XML.
 */
/** How far past its declared size an entry is followed before it is called a zip bomb. */
const overrun = (entry: ZipEntry): number => entry.uncompressedSize + 1024 * 1024;

export async function* inflatedChunks(path: string, entry: ZipEntry, fileName: string): AsyncGenerator<Buffer> {
  let produced = 0;
  let crc = 0;
  const source =
    entry.compressedSize === 0
      ? Readable.from([])
      : createReadStream(path, { start: entry.dataOffset, end: entry.dataOffset + entry.compressedSize - 1, highWaterMark: 256 * 1024 });
  const inflater = entry.method === 0 ? undefined : createInflateRaw({ chunkSize: 64 * 1024 });
  if (inflater) {
    source.on('error', (error: Error) => inflater.destroy(error));
    source.pipe(inflater);
  }
  const chunks: AsyncIterable<Buffer> = inflater ?? source;
  try {
    try {
      for await (const chunk of chunks) {
        produced += chunk.length;
        if (produced > overrun(entry)) {
          throw new ApiError(
            413,
            'too-large',
            `${fileName} is unsafe: its part ${entry.name} inflates to far more than its declared ${entry.uncompressedSize} bytes (a zip bomb).`,
          );
        }
        if (produced > entry.uncompressedSize) continue;
        crc = crc32(chunk, crc);
        yield chunk;
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw damaged(fileName, `its part ${entry.name} is damaged and does not decompress`);
    }
  } finally {
    source.destroy();
    inflater?.destroy();
  }
  if (produced !== entry.uncompressedSize)
    throw damaged(fileName, `its part ${entry.name} is damaged: it is not the size its ZIP directory says`);
  if (crc >>> 0 !== entry.crc32 >>> 0) throw damaged(fileName, `its part ${entry.name} is damaged: its checksum (CRC) does not match`);
}

export async function inflateEntry(path: string, entry: ZipEntry, fileName: string, onChunk?: (chunk: Buffer) => void): Promise<void> {
  for await (const chunk of inflatedChunks(path, entry, fileName)) onChunk?.(chunk);
}
