const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The local calendar date as YYYY-MM-DD: a date of birth is a calendar date, not an instant, so
 * "before today" is judged on the clinic's calendar, not UTC's.
 */
export function localIsoDate(now: Date): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
