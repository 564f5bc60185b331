#!/usr/bin/env node
// The palaver command. It sets V8's memory flags (memory-start.ts) before it loads the rest
// of the server: loading its code (some two thousand modules from the sources, the bundle's
// CLI file from dist/, see scripts/build-server.mjs) makes most of a start's garbage, and V8
// grows its young generation while it does, past what the low memory mode holds it to. A
// static import of the CLI would load it all before any line here runs.
import './memory-start.js';

await import('./cli.js');
