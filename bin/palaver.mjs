#!/usr/bin/env node
// The palaver CLI: builds what is missing, then runs the compiled server entry.
import { ensureBuilt } from '../scripts/ensure-built.mjs';

try {
  ensureBuilt();
} catch (err) {
  // A build that cannot run says what to do, without a stack trace.
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
await import('../dist/server/main.js');
