import { expect } from 'vitest';
import type { ApiClient } from './api-client';

/**
 * Another user's view of the service while someone sends hostile requests (issue 30): that user
 * reads small lists every 5 ms, and the p99 of those answers is what the budgets are about.
 */
export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

export interface Hostile {
  p50: number;
  p99: number;
  max: number;
  statuses: number[];
}

/**
 * On a quiet machine (`WORKSTATION_STRICT_TIMING=1`, as the bench runs) the budget itself: p99
 * under 50 ms. Beside other test files on the 2-core machine the wall clock is the neighbours'
 * too (the same user alone measured p99 30-105 ms), so there only what the old code could not
 * pass is asserted: nobody waited `heldMs`, as the old code made them wait.
 */
export const STRICT = process.env.WORKSTATION_STRICT_TIMING === '1';

export function expectNotHeld(figures: Hostile, heldMs: number): void {
  expect(figures.max).toBeLessThan(heldMs);
  if (STRICT) expect(figures.p99).toBeLessThan(50);
}

/**
 * Runs `hostile` again and again for `forMs` (at least once; `parallel` copies at once) while
 * `other` reads `paths` in turn every 5 ms; prints and answers the other's latencies.
 */
export async function whileHostile(
  other: ApiClient,
  paths: string[],
  label: string,
  hostile: () => Promise<number>,
  { forMs = 2500, parallel = 1 } = {},
): Promise<Hostile> {
  const latencies: number[] = [];
  const statuses: number[] = [];
  let running = true;
  const poll = (async () => {
    for (let n = 0; running; n += 1) {
      const started = performance.now();
      const reply = await other.get(paths[n % paths.length]);
      expect(reply.status, reply.text).toBe(200);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = performance.now();
  const runner = async (): Promise<void> => {
    do {
      statuses.push(await hostile());
      await new Promise((resolve) => setTimeout(resolve, 20));
    } while (performance.now() - started < forMs);
  };
  await Promise.all(Array.from({ length: parallel }, runner));
  running = false;
  await poll;
  const p99 = percentile(latencies, 99);
  const max = Math.max(...latencies);
  console.log(
    `${label}: ${statuses.length} requests in ${((performance.now() - started) / 1000).toFixed(1)} s; other user's requests p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms (${latencies.length} requests)`,
  );
  return { p50: percentile(latencies, 50), p99, max, statuses };
}
