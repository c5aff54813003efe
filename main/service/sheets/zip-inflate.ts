import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { ApiError } from '../errors';
import { damaged, type ZipEntry } from './zip-directory';

/**
 * Inflates one ZIP entry, chunk by chunk, and stops the moment it produces more than its
 * directory declared: the declared sizes were already judged safe, so an entry that lies about
 * its size is the one way left to inflate past the limit. An entry that inflates to less, or
 * whose data is cut short, is damaged.
 *
 * Pulled, not pushed: the sheet reader takes the next chunk only when its consumer wants more
 * rows, so a slow consumer holds at most a chunk or two of inflated XML.
 */
export async function* inflatedChunks(path: string, entry: ZipEntry, fileName: string): AsyncGenerator<Buffer> {
  let produced = 0;
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
        if (produced > entry.uncompressedSize) {
          throw new ApiError(
            413,
            'too-large',
            `${fileName} is unsafe: its part ${entry.name} inflates to more than its declared ${entry.uncompressedSize} bytes (a zip bomb).`,
          );
        }
        yield chunk;
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw damaged(fileName, `its part ${entry.name} does not decompress`);
    }
  } finally {
    source.destroy();
    inflater?.destroy();
  }
  if (produced !== entry.uncompressedSize) throw damaged(fileName, `its part ${entry.name} is not the size its ZIP directory says`);
}

export async function inflateEntry(path: string, entry: ZipEntry, fileName: string, onChunk?: (chunk: Buffer) => void): Promise<void> {
  for await (const chunk of inflatedChunks(path, entry, fileName)) onChunk?.(chunk);
}
