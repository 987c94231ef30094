const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** Made when first needed: making one costs about 100 ms of a page's first load (the browser reads its locale data). */
let relative: Intl.RelativeTimeFormat | undefined;

/** "3 minutes ago", "yesterday"; "just now" under a minute. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) {
      relative ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
      return relative.format(Math.round(seconds / size), unit);
    }
  }
  return 'just now';
}

/** The full date and time, for a `title` or `dateTime` beside a relative time. */
export function fullTime(iso: string): string {
  return new Date(iso).toLocaleString();
}
