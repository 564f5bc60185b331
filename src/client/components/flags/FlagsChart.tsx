import { useEffect, useRef } from 'react';
import { languageDir } from '../../../shared/languages';
import { useT } from '../../app/hooks';

const DAY_MS = 86_400_000;

/**
 * The flags page's chart: new flags per day (UTC), the last days oldest first and today last,
 * as the page data's `analytics` gives them (NodeBB's flags analytics). chart.js is imported
 * when the chart mounts, in its own chunk, as the admin dashboard's charts are (never on the server).
 */
export function FlagsChart({ counts }: { counts: number[] }) {
  const { t, lang } = useT();
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let chart: { destroy(): void } | null = null;
    let cancelled = false;
    void import('chart.js/auto').then(({ default: Chart }) => {
      if (cancelled || !canvas.current) return;
      const rtl = languageDir(lang) === 'rtl';
      const today = Math.floor(Date.now() / DAY_MS);
      const labels = counts.map((_, i) => new Date((today - counts.length + 1 + i) * DAY_MS).toLocaleDateString(lang, { month: 'short', day: 'numeric', timeZone: 'UTC' }));
      chart = new Chart(canvas.current, {
        type: 'bar',
        data: { labels, datasets: [{ label: t('flags:chart.title'), data: counts, backgroundColor: '#dc354599', borderColor: '#dc3545', borderWidth: 1 }] },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: { x: { reverse: rtl, ticks: { maxTicksLimit: 6 } }, y: { beginAtZero: true, position: rtl ? 'right' : 'left', ticks: { precision: 0 } } },
          plugins: { legend: { display: false }, tooltip: { rtl } },
        },
      });
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [counts, t, lang]);
  const total = counts.reduce((a, b) => a + b, 0);
  return (
    <section className="card card-body mb-3" aria-labelledby="flags-chart-title" data-testid="flags-chart">
      <h2 id="flags-chart-title" className="h6 mb-2">{t('flags:chart.title')}</h2>
      <div className="position-relative" style={{ height: 160 }}>
        <canvas ref={canvas} role="img" aria-label={t('flags:chart.label', total)} data-total={total} />
      </div>
    </section>
  );
}
