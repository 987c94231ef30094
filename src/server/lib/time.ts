/** Current time as ISO-8601 UTC, the one format stored and served. */
export function nowIso(): string {
  return new Date().toISOString();
}

export function isoMinus(ms: number, from = Date.now()): string {
  return new Date(from - ms).toISOString();
}

export const DAY_MS = 24 * 3600 * 1000;
