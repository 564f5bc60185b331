// SHA-256 (FIPS 180-4) over a UTF-8 string, as lowercase hex. The captcha's proof of work hashes
// tens of thousands of short strings: a synchronous hash avoids crypto.subtle's per-call
// promise and works where crypto.subtle does not (a forum served over plain http).
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
  0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
  0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const W = new Uint32Array(64);
const encoder = new TextEncoder();

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** The SHA-256 digest of a string (UTF-8) as lowercase hex. */
export function sha256Hex(text: string): string {
  const data = encoder.encode(text);
  const bitLen = data.length * 8;
  const blocks = Math.ceil((data.length + 9) / 64);
  const buf = new Uint8Array(blocks * 64);
  buf.set(data);
  buf[data.length] = 0x80;
  const view = new DataView(buf.buffer);
  view.setUint32(buf.length - 8, Math.floor(bitLen / 0x100000000));
  view.setUint32(buf.length - 4, bitLen >>> 0);
  let h0 = 0x6a09e667, h1 = 0xbb67ae85, h2 = 0x3c6ef372, h3 = 0xa54ff53a, h4 = 0x510e527f, h5 = 0x9b05688c, h6 = 0x1f83d9ab, h7 = 0x5be0cd19;
  for (let off = 0; off < buf.length; off += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = W[i - 15]!, b = W[i - 2]!;
      W[i] = (W[i - 16]! + (rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3)) + W[i - 7]! + (rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10))) >>> 0;
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h0 = (h0 + a) >>> 0; h1 = (h1 + b) >>> 0; h2 = (h2 + c) >>> 0; h3 = (h3 + d) >>> 0;
    h4 = (h4 + e) >>> 0; h5 = (h5 + f) >>> 0; h6 = (h6 + g) >>> 0; h7 = (h7 + h) >>> 0;
  }
  return [h0, h1, h2, h3, h4, h5, h6, h7].map((x) => x.toString(16).padStart(8, '0')).join('');
}

/** An ALTCHA challenge as the server hands it out (altcha-lib v1). */
export interface AltchaChallenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
}

/**
 * Solves an ALTCHA challenge as its widget does: the number n in 0..maxnumber for which
 * SHA-256(salt + n) is the challenge. Works in slices of `slice` numbers and yields between
 * them (`pause`), so the page stays responsive; null when no number matches or when aborted.
 */
export async function solveAltcha(c: AltchaChallenge, opts: { slice?: number; pause?: () => Promise<void>; signal?: AbortSignal } = {}): Promise<number | null> {
  if (c.algorithm !== 'SHA-256') return null;
  const max = c.maxnumber ?? 1_000_000;
  const slice = opts.slice ?? 2000;
  const pause = opts.pause ?? (() => new Promise<void>((r) => setTimeout(r, 0)));
  for (let start = 0; start <= max; start += slice) {
    if (opts.signal?.aborted) return null;
    const end = Math.min(max, start + slice - 1);
    for (let n = start; n <= end; n++) if (sha256Hex(c.salt + n) === c.challenge) return n;
    await pause();
  }
  return null;
}

/** The widget's payload for a solved challenge: base64 of its JSON, as the server's verifySolution reads it. */
export function altchaPayload(c: AltchaChallenge, number: number): string {
  const json = JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number, salt: c.salt, signature: c.signature });
  return btoa(json);
}
