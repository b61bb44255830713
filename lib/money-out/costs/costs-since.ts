const DAY_MS = 86_400_000;
/** A costs report starts this many days ago unless told otherwise. */
export const COSTS_DEFAULT_DAYS = 30;

/**
 * A costs report's start, as the CLI's --since and the dashboard's ?since= take it: a real UTC day (YYYY-MM-DD;
 * JavaScript would roll 2026-02-31 over into March) or an ISO 8601 instant. Null when it is neither.
 */
export function parseSince(text: string): Date | null {
  const t = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}/.test(t)) return null;
  const isDay = /^\d{4}-\d{2}-\d{2}$/.test(t);
  const date = new Date(isDay ? `${t}T00:00:00Z` : t);
  if (Number.isNaN(date.getTime())) return null;
  return isDay && date.toISOString().slice(0, 10) !== t ? null : date;
}

export const defaultSince = (now = Date.now()) => new Date(now - COSTS_DEFAULT_DAYS * DAY_MS);
