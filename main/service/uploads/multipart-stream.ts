import { ApiError } from '../errors';

/**
 * A multipart/form-data body read as it arrives, chunk by chunk: each file part's bytes go to a
 * sink as they come, so a 50 MB upload never sits in memory whole. Only what a boundary could
 * span is kept between chunks.
 */
export interface PartSink {
  write(chunk: Uint8Array): void;
}

export interface PartStart {
  field: string;
  filename: string | undefined;
}

/** Part headers are a few hundred bytes; more is not a form a browser or curl sends. */
const MAX_PART_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

const unreadable = (why: string): ApiError =>
  new ApiError(400, 'bad-upload', `The upload is not a readable multipart form (${why}): send the file in a part named uploadedfile.`);

export function boundaryOf(contentType: string): string {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw unreadable('no boundary in the content type');
  return boundary;
}

function partStartOf(headerText: string): PartStart {
  const disposition = headerText.split('\r\n').find((line) => /^content-disposition:/i.test(line)) ?? '';
  const field = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
  if (field === undefined) throw unreadable('a part without a name');
  return { field, filename: /;\s*filename="([^"]*)"/i.exec(disposition)?.[1] };
}

type State = 'preamble' | 'headers' | 'body' | 'after-delimiter' | 'done';

/**
 * Feeds the body to `openPart` / sinks. `openPart` answers the sink for a part, or undefined to
 * skip its bytes. Resolves when the closing delimiter was read; a body that ends before it is
 * refused, so a cut-off upload is never stored as if it were whole.
 */
export async function readMultipart(
  chunks: AsyncIterable<Uint8Array>,
  boundary: string,
  openPart: (start: PartStart) => PartSink | undefined,
): Promise<void> {
  const opening = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let pending: Buffer = Buffer.alloc(0);
  let state: State = 'preamble';
  let sink: PartSink | undefined;

  for await (const chunk of chunks) {
    // A view of the chunk, not a copy: it is only read before this turn of the loop ends.
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // Inside a part, `pending` is the last chunk's tail, kept in case a delimiter starts in it.
    // When none does, the tail is the part's and the new chunk is read as it is: joining each
    // chunk to the tail before it copied every byte of an upload once more.
    if (state === 'body' && pending.length > 0 && bytes.length >= delimiter.length) {
      const joint = Buffer.concat([pending, bytes.subarray(0, delimiter.length - 1)]);
      const at = joint.indexOf(delimiter);
      if (at < 0 || at >= pending.length) {
        sink?.write(pending);
        pending = Buffer.alloc(0);
      }
    }
    pending = pending.length === 0 ? bytes : Buffer.concat([pending, bytes]);
    for (;;) {
      if (state === 'preamble') {
        const at = pending.indexOf(opening);
        if (at < 0) {
          pending = pending.subarray(Math.max(0, pending.length - opening.length));
          break;
        }
        pending = pending.subarray(at + opening.length);
        state = 'after-delimiter';
      } else if (state === 'after-delimiter') {
        if (pending.length < 2) break;
        if (pending[0] === 0x2d && pending[1] === 0x2d) {
          state = 'done';
          break;
        }
        if (!pending.subarray(0, 2).equals(CRLF)) throw unreadable('a boundary not followed by a line break');
        pending = pending.subarray(2);
        state = 'headers';
      } else if (state === 'headers') {
        const end = pending.indexOf(HEADER_END);
        if (end < 0) {
          if (pending.length > MAX_PART_HEADER_BYTES) throw unreadable('part headers too long');
          break;
        }
        sink = openPart(partStartOf(pending.subarray(0, end).toString('utf8')));
        pending = pending.subarray(end + HEADER_END.length);
        state = 'body';
      } else if (state === 'body') {
        const at = pending.indexOf(delimiter);
        if (at < 0) {
          // Everything but a tail that could be the start of the delimiter belongs to the part.
          const safe = Math.max(0, pending.length - (delimiter.length - 1));
          if (safe > 0) sink?.write(pending.subarray(0, safe));
          pending = pending.subarray(safe);
          break;
        }
        if (at > 0) sink?.write(pending.subarray(0, at));
        sink = undefined;
        pending = pending.subarray(at + delimiter.length);
        state = 'after-delimiter';
      } else {
        break;
      }
    }
    if (state === 'done') return;
    // Copies of the tail only: the chunk the tail came from may be reused by its stream.
    pending = Buffer.from(pending);
  }
  throw unreadable('the body ended before the closing boundary');
}
