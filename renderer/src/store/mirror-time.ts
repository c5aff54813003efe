import { mirrorAge } from '../../../main/service/contract/mirror-age';

/**
 * A mirror's pull time as the panels say it: "09:40" for a pull of today, "2026-11-26 09:40"
 * for an older one. The service answers local times without a zone (`2026-11-26T09:40:12.114000`),
 * so the text is read as it is, never through Date (which would shift it by the zone).
 */
export function mirrorTime(pulledAt: string, today: Date = new Date()): string {
  const [date = '', time = ''] = pulledAt.split('T');
  const minutes = time.slice(0, 5);
  return date === localDate(today) ? minutes : `${date} ${minutes}`;
}

/**
 * The Sync panel's label of a mirror: its date, time and age, "mirror of 2026-11-26 09:40 (2 h 5
 * min ago)", or "never pulled" when the profile has no mirror yet.
 */
export function mirrorText(pulledAt: string | null, now: Date = new Date()): string {
  return pulledAt === null ? 'never pulled' : `mirror of ${mirrorAge(pulledAt, now, false)}`;
}

function localDate(day: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}
