#!/usr/bin/env node
// The palaver CLI: builds what is missing, then runs the compiled server entry.
import { ensureBuilt } from '../scripts/ensure-built.mjs';

ensureBuilt();
await import('../dist/server/main.js');
