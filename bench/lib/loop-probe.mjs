// Loaded into the benchmarked server with `node --import` (never part of src/): watches the
// server's event loop so a read's tail latency can be explained (issue 18).
//
// On each SIGUSR2 it writes what it saw since the previous signal to PALAVER_BENCH_LOOP_FILE
// as one JSON object and starts a new window. bench/load.mjs signals when its measured window
// opens and when it closes, and reads the second answer:
//   delay:  event-loop delay histogram (perf_hooks.monitorEventLoopDelay, 1 ms resolution):
//           how late a timer fires, i.e. the longest stretches the loop spent without
//           returning to poll for I/O (a synchronous SQLite call, a render, a collection);
//   elu:    event-loop utilisation (share of the window the loop was busy, not waiting);
//   gc:     garbage collections by kind (count, total and longest pause);
//   memory: process.memoryUsage() at the window's end.
//   spaces: V8's heap by space at the window's end, [MB reserved, MB used].
import { renameSync, writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import { PerformanceObserver, constants, monitorEventLoopDelay, performance } from 'node:perf_hooks';

const file = process.env.PALAVER_BENCH_LOOP_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
  };
  let gc = {};
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = kinds[e.detail?.kind ?? e.kind] ?? 'other';
      const g = (gc[kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
      g.count += 1;
      g.totalMs += e.duration;
      g.maxMs = Math.max(g.maxMs, e.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  let seq = 0;
  let elu0 = performance.eventLoopUtilization();
  let t0 = performance.now();
  process.on('SIGUSR2', () => {
    const ms = (ns) => Math.round((ns / 1e6) * 100) / 100;
    const elu = performance.eventLoopUtilization(elu0);
    seq += 1;
    const out = {
      seq,
      windowMs: Math.round(performance.now() - t0),
      delay: {
        // The monitor's timer fires every `resolution` ms, so a figure includes that 1 ms.
        p50: ms(histogram.percentile(50)),
        p90: ms(histogram.percentile(90)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
        mean: ms(histogram.mean),
        samples: histogram.count,
      },
      elu: Math.round(elu.utilization * 1000) / 1000,
      busyMs: Math.round(elu.active),
      gc,
      // Memory at the window's end, MB: RSS, and of it V8's heap (used and reserved), memory
      // outside the heap that JS objects hold (external), and the buffers among that.
      memory: Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 1048576)])),
      // V8's heap by space, MB reserved (what RSS holds of it) and used: which space grew.
      spaces: Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name.replace(/_space$/, ''), [Math.round(s.space_size / 104857.6) / 10, Math.round(s.space_used_size / 104857.6) / 10]])),
    };
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify(out));
      renameSync(`${file}.tmp`, file);
    } catch (err) {
      process.stderr.write(`loop probe: ${err.message}\n`);
    }
    histogram.reset();
    gc = {};
    elu0 = performance.eventLoopUtilization();
    t0 = performance.now();
  });
}
