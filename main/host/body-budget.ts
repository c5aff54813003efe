/**
 * How many bytes of request bodies may be on their way in at once. Each request takes its
 * declared length (or its path's limit, for a chunked body) before a byte is read and gives it
 * back when done, so many large bodies arriving together are refused instead of piling up.
 */
export class BodyBudget {
  private used = 0;

  constructor(readonly capacity: number) {}

  take(bytes: number): boolean {
    if (this.used + bytes > this.capacity) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }

  get inUse(): number {
    return this.used;
  }
}
