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
  if (used + 6 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 6;
  return Date.now().toString(16).padStart(12, '0') + pool.toString('hex', used - 6, used);
}

/** Transaction ids: UUID v4. */
export const newTransactionId = (): string => randomUUID();

/** ISO 8601 with microseconds and no zone, as the spec shows transaction times. */
export function isoMicros(date: Date): string {
  const ms = date.getTime();
  // A bulk-load row stamps a dozen times (its steps' logs) within the same millisecond.
  if (ms !== lastMs) {
    lastMs = ms;
    lastText = `${date.toISOString().slice(0, 23)}000`;
  }
  return lastText;
}

let lastMs = Number.NaN;
let lastText = '';
