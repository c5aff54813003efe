import { getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { heapAfterJob } from '../../main/service/jobs/heap-trim';
import { SWOLLEN_HEAP_BYTES } from '../../main/service/jobs/job-protocol';

describe("a job worker's heap after a big job", () => {
  it('is collected back under the limit, so the worker can stay, and no code is given gc', () => {
    // What a big job leaves behind: garbage V8 keeps until it needs the room.
    let garbage: string[][] | undefined = Array.from({ length: 400 }, (_, block) =>
      Array.from({ length: 2_000 }, (__, index) => `row ${block} ${index} ${'x'.repeat(40)}`),
    );
    expect(garbage.length).toBe(400);
    garbage = undefined;
    expect(getHeapStatistics().total_heap_size).toBeGreaterThan(SWOLLEN_HEAP_BYTES);
    expect(heapAfterJob()).toBeLessThan(SWOLLEN_HEAP_BYTES);
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
