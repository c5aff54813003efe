import type { JsonObject } from '../../main/service/api-types';

/**
 * Deterministic, unique directory numbers `+44` + 3-digit block + 7-digit serial. Row i falls in
 * block permute(i mod 1000), so every block prefix matches exactly 1 row in 1000 (0.1%) for any
 * row count, and those rows are spread across the whole table rather than stored together.
 */
const BLOCKS = 1000;
const SERIALS = 10_000_000;

// Multipliers coprime with the moduli make both maps permutations (numbers stay unique).
const blockOf = (residue: number): number => (residue * 373 + 101) % BLOCKS;
const serialOf = (quotient: number): number => (quotient * 7_654_321 + 1_234_567) % SERIALS;

export function patternOf(index: number): string {
  const block = blockOf(index % BLOCKS);
  const serial = serialOf(Math.floor(index / BLOCKS));
  return `+44${String(block).padStart(3, '0')}${String(serial).padStart(7, '0')}`;
}

/** The prefix matching the block of residue r: rows r, r + 1000, r + 2000... */
export function blockPrefix(residue: number): string {
  return `+44${String(blockOf(residue % BLOCKS)).padStart(3, '0')}`;
}

/** How many of `rows` lines a block prefix matches. */
export const rowsPerPrefix = (rows: number, residue: number): number => Math.max(0, Math.ceil((rows - residue) / BLOCKS));

const FIRST = ['Alice', 'Bruno', 'Chloe', 'David', 'Emma', 'Farid', 'Grace', 'Hugo', 'Ines', 'Jack', 'Kofi', 'Lena'];
const LAST = ['Martin', 'Smith', 'Dubois', 'Jones', 'Bernard', 'Taylor', 'Moreau', 'Brown', 'Laurent', 'Wilson', 'Okafor'];

/** The varying fields of line i; the caller adds the model's defaults once, as the API would. */
export function lineFields(index: number, siteName: string): JsonObject {
  const pattern = patternOf(index);
  const first = FIRST[index % FIRST.length];
  const last = LAST[Math.floor(index / FIRST.length) % LAST.length];
  return {
    pattern,
    routePartitionName: `${siteName}-PT`,
    alertingName: `${first} ${last}`,
    summary_device: `SEP${(0xa0000000000 + index).toString(16).toUpperCase().padStart(12, '0')}`,
    usage: 'Device',
    description: `${first} ${last} desk line at ${siteName}`,
  };
}
