// Times, durations and dates as people read them, in the browser's language.

/** "3 h 05 min", "12 min", "under a minute". */
export function formatDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1) return "under a minute";
  const hours = Math.floor(minutes / 60);
  if (hours === 0) return `${minutes} min`;
  return `${hours} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/**
 * An instant as a date and time, in the browser's time zone unless one is given. A zone the
 * browser does not know falls back to the browser's own rather than failing the panel.
 */
export function formatInstant(iso: string, timeZone?: string): string {
  const options: Intl.DateTimeFormatOptions = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  try {
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat(undefined, options).format(new Date(iso));
  }
}

/**
 * A calendar date "2026-03-29" as "29 Mar" (order per language). It names a day, not an
 * instant: formatted in UTC, so no time zone shifts it to the day before.
 */
export function formatDay(date: string): string {
  return new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", timeZone: "UTC" }).format(new Date(`${date}T00:00:00Z`));
}

/** A count with its noun: "1 mission report", "3 mission reports". */
export const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
