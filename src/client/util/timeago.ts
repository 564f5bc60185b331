import { DAY_MS } from '../../shared/constants';

export interface Timeago {
  /** The text to show. */
  text: string;
  /** Full absolute date, for the title attribute. */
  title: string;
  absolute: boolean;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * DAY_MS],
  ['month', 30 * DAY_MS],
  ['week', 7 * DAY_MS],
  ['day', DAY_MS],
  ['hour', 3600000],
  ['minute', 60000],
  ['second', 1000],
];

/** The value kept in `map` under `key`, made on first use. */
function memo<V>(map: Map<string, V>, key: string, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    map.set(key, v);
  }
  return v;
}

const formatters = new Map<string, Intl.DateTimeFormat | Intl.RelativeTimeFormat>();
const cached = <T extends Intl.DateTimeFormat | Intl.RelativeTimeFormat>(key: string, make: () => T): T => memo(formatters, key, make) as T;

// supportedLocalesOf is slow enough to show in a server render's profile: asked once per language.
const supported = new Map<string, string>();
function safeLang(lang: string): string {
  return memo(supported, lang, () => {
    try {
      return Intl.DateTimeFormat.supportedLocalesOf([lang]).length ? lang : 'en-GB';
    } catch {
      return 'en-GB';
    }
  });
}

/** Absolute date: short month, numeric year, day, hour and minute in the member's language. */
export function formatAbsolute(ts: number, lang: string, timeZone?: string): string {
  const l = safeLang(lang);
  const f = cached(`abs:${l}:${timeZone ?? ''}`, () =>
    new Intl.DateTimeFormat(l, { month: 'short', year: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', timeZone }),
  );
  return f.format(new Date(ts));
}

/** Relative text such as "3 hours ago" or "in 2 days" (future times allowed). */
export function formatRelative(ts: number, now: number, lang: string): string {
  const l = safeLang(lang);
  const f = cached(`rel:${l}`, () => new Intl.RelativeTimeFormat(l, { numeric: 'auto' }));
  const diff = ts - now;
  const abs = Math.abs(diff);
  for (const [unit, ms] of UNITS) {
    if (abs >= ms || unit === 'second') {
      const value = Math.round(diff / ms);
      if (unit === 'second' && Math.abs(value) < 45) return f.format(0, 'second');
      return f.format(value, unit);
    }
  }
  return f.format(0, 'second');
}

/**
 * Spec §9: a cutoff of 0 days means always absolute; otherwise dates older than
 * cutoff × 86400000 ms show absolute, newer ones relative.
 */
export function timeago(ts: number, now: number, lang: string, cutoffDays: number, timeZone?: string): Timeago {
  const title = formatAbsolute(ts, lang, timeZone);
  const absolute = cutoffDays === 0 || Math.abs(now - ts) > cutoffDays * DAY_MS;
  return { text: absolute ? title : formatRelative(ts, now, lang), title, absolute };
}
