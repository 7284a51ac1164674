/** The rail's times (HistoryView.tsx, issue 31). */

/** The whole date and time, for the row's tooltip. */
export const fullTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });

/**
 * When a visit started, as short as the rail needs: today's by their time of day ("2:05 PM",
 * "14:05"), earlier ones with the day too ("21 Nov, 14:05"), in the computer's own style.
 */
export function railTime(startedAt: number, now: Date, locale?: string): string {
  const started = new Date(startedAt);
  const today = started.toDateString() === now.toDateString();
  return new Intl.DateTimeFormat(locale, {
    ...(today ? {} : { day: 'numeric', month: 'short' }),
    hour: 'numeric',
    minute: '2-digit',
  }).format(started);
}
