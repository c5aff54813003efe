/**
 * One queue of turns for every long piece of work on the service's thread (scans, big edits,
 * their undo). Each piece works a slice of a few milliseconds, then waits here; the queue wakes
 * one waiter per turn of the event loop, so the network and every other request get the loop
 * between any two slices. With a `setImmediate` each, eight scans at once all ran in the same turn,
 * 80 ms between two chances for anyone else; here each waits its turn, first come first served.
 */
const waiting: (() => void)[] = [];
let pumping = false;

function pump(): void {
  const next = waiting.shift();
  if (!next) {
    pumping = false;
    return;
  }
  next();
  // Scheduled from inside the check phase: it runs in the next turn of the loop, after its I/O.
  setImmediate(pump);
}

/** Resolves at this caller's next turn (behind those already waiting). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!pumping) {
      pumping = true;
      setImmediate(pump);
    }
  });
}

/** Milliseconds one slice of long work may hold the thread before it waits its turn. */
export const SLICE_MS = 8;

/** A slice of long work: `due()` is cheap enough to ask each row; `turn()` waits in the queue. */
export class TimeSlice {
  private since = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** True once the slice is spent: the caller then awaits `turn()` (checked without an await, which a row would pay). */
  due(): boolean {
    return performance.now() - this.since >= this.sliceMs;
  }

  async turn(): Promise<void> {
    await nextTurn();
    this.since = performance.now();
  }

  /** Waits a turn only when the slice is spent. */
  async maybeTurn(): Promise<void> {
    if (this.due()) await this.turn();
  }
}
