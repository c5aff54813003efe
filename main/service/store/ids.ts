import { randomBytes, randomUUID } from 'node:crypto';

/** Resource pkids: 24 lowercase hex characters (decisions.md). */
export const newPkid = (): string => randomBytes(12).toString('hex');

/** Transaction ids: UUID v4. */
export const newTransactionId = (): string => randomUUID();

/** ISO 8601 with microseconds and no zone, as the spec shows transaction times. */
export function isoMicros(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000`;
}
