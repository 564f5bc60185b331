// Upload throughput: members upload a ~2 MB JPEG (2400×1600, wider than resizeImageWidth, so
// every upload is decoded, scaled, re-encoded, stripped and thumbnailed) through NodeBB's
// POST /api/post/upload, from C concurrent clients for D seconds. Prints uploads/s, latency
// p50/p99 and the server's peak RSS during the run (VmRSS sampled every 50 ms).
//   node bench/upload.mjs '<json spec>'   → one JSON result line on stdout
// spec: { base, pid, usernames, password, clients, durationSec }
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { login as loginAs } from './lib/session.mjs';

const spec = JSON.parse(process.argv[2]);
const log = (s) => process.stderr.write(`upload: ${s}\n`);
const clients = spec.clients ?? 4;
const durationMs = (spec.durationSec ?? 10) * 1000;
const TARGET = 2_000_000;

const login = (username) => loginAs(spec.base, username, spec.password);

/** A photo-like JPEG of about 2 MB (noise over gradients: it compresses like a photo, not like a flat colour). */
async function makeJpeg(seed) {
  const w = 2400;
  const h = 1600;
  const raw = Buffer.alloc(w * h * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const p = (i / 3) | 0;
    raw[i] = (((p % w) >> 3) + ((p / w) >> 3) * (1 + (i % 3)) + ((x >>> 24) & 63)) & 255;
  }
  for (let q = 92; q > 40; q -= 2) {
    const jpeg = await sharp(raw, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: q }).withExif({ IFD0: { Make: 'Bench' } }).toBuffer();
    if (jpeg.length <= TARGET) return jpeg;
  }
  throw new Error('could not make a 2 MB JPEG');
}

const rssNow = () => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${spec.pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
};

const sessions = await Promise.all(spec.usernames.slice(0, clients).map(login));
// Each client its own image (content-hashed names: the same bytes would be stored once).
const images = await Promise.all(sessions.map((_, i) => makeJpeg(i + 1)));
log(`${clients} clients, JPEG of ${(images[0].length / 1e6).toFixed(2)} MB`);

const rssBefore = rssNow();
let peak = rssBefore;
const sampler = setInterval(() => (peak = Math.max(peak, rssNow())), 50);
const times = [];
let failed = 0;
let lastError = '';
const t0 = performance.now();
await Promise.all(
  sessions.map(async (s, k) => {
    let n = 0;
    while (performance.now() - t0 < durationMs) {
      // A JPEG comment segment (FF FE) with a counter after the start marker: every upload is a new file, as in real use.
      const com = Buffer.from([0xff, 0xfe, 0x00, 0x06, 0, 0, 0, 0]);
      com.writeUInt32BE((k << 20) + (n += 1), 4);
      const bytes = Buffer.concat([images[k].subarray(0, 2), com, images[k].subarray(2)]);
      const form = new FormData();
      form.append('files[]', new Blob([bytes], { type: 'image/jpeg' }), `photo-${k}-${n}.jpg`);
      const start = performance.now();
      const res = await fetch(`${spec.base}/api/post/upload`, { method: 'POST', body: form, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } });
      const text = await res.text();
      if (res.status === 200) times.push(performance.now() - start);
      else {
        failed += 1;
        lastError = `${res.status} ${text.slice(0, 200)}`;
      }
    }
  }),
);
const elapsed = performance.now() - t0;
clearInterval(sampler);
peak = Math.max(peak, rssNow());
if (failed) log(`${failed} failed, last: ${lastError}`);
times.sort((a, b) => a - b);
const pct = (p) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
process.stdout.write(`${JSON.stringify({ clients, bytes: images[0].length, uploads: times.length, failed, perSec: (times.length / elapsed) * 1000, p50: pct(50), p99: pct(99), rssBefore, peakRss: peak })}\n`);
process.exit(0);
