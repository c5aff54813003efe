import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';
import { ApiError } from '../errors';
import { damaged, type ZipEntry } from './zip-directory';

/**
 * Inflates one ZIP entry, chunk by chunk, and stops the moment it produces more than its
 * directory declared: the declared sizes were already judged safe, so an entry that lies about
 * its size is the one way left to inflate past the limit. An entry that inflates to less, or
 * whose data is cut short, is damaged.
 */
export async function inflateEntry(path: string, entry: ZipEntry, fileName: string, onChunk?: (chunk: Buffer) => void): Promise<void> {
  let produced = 0;
  // Kept aside: the streams torn down after it may reject the pipeline with their own error first.
  let bomb: ApiError | undefined;
  const source =
    entry.compressedSize === 0
      ? Readable.from([])
      : createReadStream(path, { start: entry.dataOffset, end: entry.dataOffset + entry.compressedSize - 1, highWaterMark: 256 * 1024 });
  const consume = async (chunks: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of chunks) {
      produced += chunk.length;
      if (produced > entry.uncompressedSize) {
        bomb = new ApiError(413, 'too-large', `${fileName} is unsafe: its part ${entry.name} inflates to more than its declared ${entry.uncompressedSize} bytes (a zip bomb).`);
        throw bomb;
      }
      onChunk?.(chunk);
    }
  };
  try {
    if (entry.method === 0) await pipeline(source, consume);
    else await pipeline(source, createInflateRaw({ chunkSize: 64 * 1024 }), consume);
  } catch (error) {
    if (bomb) throw bomb;
    if (error instanceof ApiError) throw error;
    throw damaged(fileName, `its part ${entry.name} does not decompress`);
  }
  if (produced !== entry.uncompressedSize) throw damaged(fileName, `its part ${entry.name} is not the size its ZIP directory says`);
}
