// An ISO-8601 instant as clients write one (2026-11-21T22:10:00Z, an offset instead of Z, seconds
// and fractions optional), read strictly: JavaScript's Date would roll 30 February or hour 24 over
// into the next day instead of refusing them. The GraphQL scalar (src/schema/dateTime.ts) and the
// admin command's --expires-at read instants with it.

const isoInstant = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/i;

/** The instants both databases store alike: years 1 to 9999 in UTC (epoch ms). */
export const earliestInstant = Date.parse("0001-01-01T00:00:00.000Z");
export const latestInstant = Date.parse("9999-12-31T23:59:59.999Z");

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysInMonth = (year: number, month: number) => (month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

/** The instant, or null when the text is not one (each part in its range, an offset within ±23:59). */
export function parseIsoInstant(text: string): Date | null {
  const parts = isoInstant.exec(text);
  if (!parts) return null;
  const [year, month, day, hour, minute, second = 0, offsetHours = 0, offsetMinutes = 0] = parts
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part))) as number[];
  const date = new Date(text);
  const valid =
    month >= 1 && month <= 12 &&
    day >= 1 && day <= daysInMonth(year, month) &&
    hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59 &&
    date.getTime() >= earliestInstant && date.getTime() <= latestInstant;
  return valid ? date : null;
}
