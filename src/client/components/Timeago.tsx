import { useEffect, useState } from 'react';
import { useRuntime } from '../app/runtime';
import { useT, useUser } from '../app/hooks';
import { useStore } from '../state/store';
import { retainTimeagoClock, timeagoClock } from '../state/clock';
import { formatAbsolute, timeago } from '../util/timeago';

function useNow(): number | null {
  // One shared clock for every timestamp; it ticks every 60 s while something is mounted.
  const tick = useStore(timeagoClock);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    setReady(true);
    return retainTimeagoClock();
  }, []);
  void tick;
  // Server and hydration render use the absolute form; relative text starts after mount.
  return ready ? Date.now() : null;
}

/** A timestamp shown relative (refreshed every 60 s) or absolute per the timeagoCutoff rule. */
export function Timeago({ iso, ts }: { iso?: string; ts?: number }) {
  const rt = useRuntime();
  const { lang } = useT();
  const now = useNow();
  const time = ts ?? (iso ? Date.parse(iso) : NaN);
  if (!Number.isFinite(time)) return null;
  const cutoff = rt.config.timeagoCutoff ?? 30;
  // The member's chosen time zone, else UTC on the server and the browser's own after mount.
  const zone = useUser()?.settings?.timezone || undefined;
  const view = timeago(time, now ?? time, lang, now === null ? 0 : cutoff, now === null ? (zone ?? 'UTC') : zone);
  return (
    <time dateTime={new Date(time).toISOString()} title={view.title} className="timeago" suppressHydrationWarning>
      {view.text}
    </time>
  );
}

/**
 * Formats absolute dates (a ban's end, a consent's time) in the reader's language: in UTC on the
 * server and in the hydration render, so both give the same text, then in the member's chosen
 * time zone or the browser's own after mount, as Timeago does.
 */
export function useAbsoluteDate(): (ts: number) => string {
  const { lang } = useT();
  const mounted = useNow() !== null;
  const zone = useUser()?.settings?.timezone || undefined;
  return (ts) => formatAbsolute(ts, lang, mounted ? zone : (zone ?? 'UTC'));
}
