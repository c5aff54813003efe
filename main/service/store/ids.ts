import { randomFillSync, randomUUID } from 'node:crypto';

/**
 * Random bytes taken 4 KiB at a time: one call per pkid cost a bulk load about 10 µs a row,
 * most of it the call itself. The bytes are the same CSPRNG's.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

/**
 * Resource pkids: 24 lowercase hex characters (decisions.md): the time in milliseconds (12 hex
 * digits, as an ObjectId leads with its time) then 48 random bits. Time first so that new
 * instances land at the end of the pkid index rather than anywhere in it: with random pkids a
 * 100,000-row load dirtied a different index page per row, and each commit wrote them all to the
 * WAL. The random half keeps a pkid from being guessed from its neighbours.
 */
export function newPkid(): string {
  return Date.now().toString(16).padStart(12, '0') + poolBytes(6).toString('hex');
}

/** Transaction ids: UUID v4. */
export const newTransactionId = (): string => randomUUID();

const TOP_BITS = 2 ** 48;

/**
 * The transaction ids of a bulk load's next `count` rows: each a UUID v4 with all its 122 bits
 * random, but handed out in ascending order. The first 48 bits are the sorted values of `count`
 * uniform draws, made one at a time (the smallest of the draws still to come is
 * `x + (1 - x)(1 - V^(1/k))` for the last value x, k draws left and a uniform V); the other 74
 * are drawn as usual. Why: the unique index on transaction ids is the one index a load writes
 * anywhere in. With ids in random order each of a batch's rows dirtied a page of its own there,
 * and each commit wrote them all to the log: at 100,000 rows a third of the log's frames, and a
 * load 13% slower than with ordered ids (measured). In ascending order a batch's ids sit side
 * by side. Past `count`, ids are drawn as usual.
 */
export function ascendingTransactionIds(count: number): () => string {
  let last = 0;
  let left = count;
  return () => {
    if (left <= 0) return randomUUID();
    const bytes = poolBytes(16);
    // A uniform draw in (0, 1], and the smallest of the `left` draws still to come above `last`.
    const draw = (bytes.readUIntBE(0, 6) + 1) / TOP_BITS;
    last += (1 - last) * -Math.expm1(Math.log(draw) / left);
    left -= 1;
    const top = Math.min(TOP_BITS - 1, Math.floor(last * TOP_BITS))
      .toString(16)
      .padStart(12, '0');
    const rest = bytes.toString('hex', 6, 16);
    const variant = (8 | (Number.parseInt(rest.charAt(3), 16) & 3)).toString(16);
    return `${top.slice(0, 8)}-${top.slice(8)}-4${rest.slice(0, 3)}-${variant}${rest.slice(4, 7)}-${rest.slice(7, 19)}`;
  };
}

/** Bytes from the pool (one CSPRNG call per 4 KiB). */
function poolBytes(size: number): Buffer {
  if (used + size > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += size;
  return pool.subarray(used - size, used);
}

/** ISO 8601 with microseconds and no zone, as the spec shows transaction times. */
export function isoMicros(date: Date): string {
  return isoMicrosAt(date.getTime());
}

/** isoMicros() of a time in ms since the epoch. */
export function isoMicrosAt(ms: number): string {
  // A bulk-load row stamps a dozen times (its steps' logs) within the same millisecond.
  if (ms !== lastMs) {
    lastMs = ms;
    lastText = `${new Date(ms).toISOString().slice(0, 23)}000`;
  }
  return lastText;
}

let lastMs = Number.NaN;
let lastText = '';
