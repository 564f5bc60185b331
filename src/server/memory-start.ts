// Imported first by main.ts, which loads the rest of the server (cli.ts) only after it: loading
// the server's modules makes most of a start's garbage, and V8 grows its young generation while
// it does. Set once they were loaded (even before any of them ran), `--semi-space-growth-factor=1`
// held the young generation at the 2 × 16 MB it had already grown to. `fast` on SQLite lets it
// grow again, up to its cap, once the server listens (cli.ts). Only `palaver start` (or
// no command) serves; the other commands keep V8's own settings.
import { loadConfig, type Config } from './config.js';
import { applyMemoryMode } from './memory.js';

/** The configuration `palaver start` read here (cli.ts uses it); null for the other commands or a bad one. */
export let startConfig: Config | null = null;
/** The memory mode `palaver start` runs in; null as startConfig is. */
export let startMemoryMode: 'low' | 'fast' | null = null;
/** When `fast` (on SQLite) holds the young generation while the server loads: the cap cli.ts lets it grow to once listening; else null. */
export let startYoungGenerationCap: number | null = null;

const args = process.argv.slice(2);
if (args.length === 0 || args[0] === 'start') {
  try {
    startConfig = loadConfig();
    ({ mode: startMemoryMode, youngGenerationCap: startYoungGenerationCap } = applyMemoryMode(startConfig.memory, startConfig.databaseUrl !== null));
  } catch {
    // cli.ts reads the configuration again and reports its problems.
  }
}
