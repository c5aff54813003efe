/**
 * A mirror's pull as people read it: its date, its time and its age, "2026-11-26 09:40:12 (2 days
 * 3 h ago)". A time alone ("09:40") did not say which day, nor that a mirror was a week old.
 * Plain TypeScript, shared by the CLI and the renderer. The service writes local times without a
 * zone (`2026-11-26T09:40:12.114000`): they are read as local time, field by field.
 */

/** The local moment a pull time names, or undefined when it is not one. */
export function pulledDate(pulledAt: string): Date | undefined {
  const parts = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(pulledAt);
  if (!parts) return undefined;
  const [, year, month, day, hour, minute, second] = parts.map(Number);
  return new Date(year, month - 1, day, hour, minute, second);
}

/** How long ago: "just now", "12 min", "3 h 5 min", "2 days 3 h". A time ahead of `now` (another clock) is "just now". */
export function ageText(pulledAt: string, now: Date): string {
  const then = pulledDate(pulledAt);
  if (!then) return 'unknown';
  const minutes = Math.floor((now.getTime() - then.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h ago` : `${hours} h ${minutes % 60} min ago`;
  const days = Math.floor(hours / 24);
  const unit = days === 1 ? 'day' : 'days';
  return hours % 24 === 0 ? `${days} ${unit} ago` : `${days} ${unit} ${hours % 24} h ago`;
}

/** "2026-11-26 09:40:12 (12 min ago)"; `seconds: false` gives "2026-11-26 09:40 (12 min ago)". */
export function mirrorAge(pulledAt: string, now: Date, seconds = true): string {
  const [date = '', time = ''] = pulledAt.split('T');
  return `${date} ${time.slice(0, seconds ? 8 : 5)} (${ageText(pulledAt, now)})`;
}
