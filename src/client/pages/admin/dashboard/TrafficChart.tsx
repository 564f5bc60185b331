import { useEffect, useRef } from 'react';
import type { AnalyticsMetric, DashboardGraph } from '../../../../shared/schemas/dashboard';
import { languageDir } from '../../../../shared/languages';
import { useT } from '../../../app/hooks';

/** The lines a chart can draw, with their label key and colour. */
export const METRIC_STYLE: Record<AnalyticsMetric, { label: string; color: string }> = {
  pageviews: { label: 'admin-dashboard:page-views', color: '#0d6efd' },
  'pageviews:registered': { label: 'admin-dashboard:page-views-registered', color: '#6f42c1' },
  'pageviews:guest': { label: 'admin-dashboard:page-views-guest', color: '#20c997' },
  registrations: { label: 'admin-dashboard:new-users', color: '#fd7e14' },
  posts: { label: 'admin-dashboard:posts', color: '#198754' },
  topics: { label: 'admin-dashboard:topics', color: '#dc3545' },
  logins: { label: 'admin-dashboard:logins', color: '#0dcaf0' },
  searches: { label: 'admin-dashboard:searches', color: '#6c757d' },
};

/** A bucket's label in the viewer's language: the hour, the day or the month. */
export function bucketLabel(ts: number, period: DashboardGraph['period'], lang: string): string {
  const d = new Date(ts);
  const opts: Intl.DateTimeFormatOptions =
    period === 'hour' ? { hour: '2-digit', minute: '2-digit' } : period === 'day' ? { month: 'short', day: 'numeric' } : { year: 'numeric', month: 'short' };
  try {
    return d.toLocaleString(lang, opts);
  } catch {
    return d.toISOString().slice(0, period === 'month' ? 7 : period === 'day' ? 10 : 16);
  }
}

/**
 * A line chart of some metrics over a graph's buckets. chart.js is imported when the chart
 * mounts, so it travels in its own chunk that only the dashboard loads (never on the server).
 */
export function TrafficChart({ graph, metrics, label }: { graph: DashboardGraph; metrics: AnalyticsMetric[]; label: string }) {
  const { t, lang } = useT();
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let chart: { destroy(): void } | null = null;
    let cancelled = false;
    void import('chart.js/auto').then(({ default: Chart }) => {
      if (cancelled || !canvas.current) return;
      const rtl = languageDir(lang) === 'rtl';
      chart = new Chart(canvas.current, {
        type: 'line',
        data: {
          labels: graph.labels.map((l) => bucketLabel(l, graph.period, lang)),
          datasets: metrics.map((m) => ({
            label: t(METRIC_STYLE[m].label),
            data: graph.series[m],
            borderColor: METRIC_STYLE[m].color,
            backgroundColor: `${METRIC_STYLE[m].color}33`,
            fill: metrics.length === 1,
            tension: 0.25,
            pointRadius: 2,
          })),
        },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          interaction: { mode: 'index', intersect: false },
          // Right to left (ar, he, fa): time runs from the right, the counts' axis stands on the right, the legend and tooltips read RTL.
          scales: { x: { reverse: rtl }, y: { beginAtZero: true, position: rtl ? 'right' : 'left', ticks: { precision: 0 } } },
          plugins: { legend: { position: 'bottom', rtl, labels: { boxWidth: 12 } }, tooltip: { rtl } },
        },
      });
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [graph, metrics, t, lang]);
  const total = (m: AnalyticsMetric) => graph.series[m].reduce((a, b) => a + b, 0);
  return (
    <div className="position-relative" style={{ height: 280 }}>
      <canvas ref={canvas} role="img" aria-label={`${t('admin-dashboard:chart.label', label)}: ${metrics.map((m) => `${t(METRIC_STYLE[m].label)} ${total(m)}`).join(', ')}`} />
    </div>
  );
}
