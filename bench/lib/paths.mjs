import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Git-ignored cache: the private build and seeded databases. */
export const CACHE = path.join(ROOT, 'bench/.cache');
/** Git-ignored results: one JSON file per run. */
export const RESULTS = path.join(ROOT, 'bench/results');
/** The fixed secret every benchmark server uses (tokens in a cached seed stay valid). */
export const BENCH_SECRET = 'palaver-bench-secret-not-for-production';
/** The password of every seeded member (members log in over HTTP for member reads). */
export const BENCH_PASSWORD = 'Bench-Horse-Battery-42!';
