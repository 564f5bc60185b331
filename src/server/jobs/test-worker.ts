// Test-only: one process of a forum running jobs (jobs.process.test.ts starts two of them).
// argv: "drain" runs due test jobs until none is left; "crash" takes one lease and dies.
import pino from 'pino';
import { loadConfig } from '../config.js';
import { createContext } from '../context.js';

const config = loadConfig();
const ctx = createContext(config, pino({ level: 'error' }));
ctx.jobs.define<{ n: number }>('test.proc', async ({ payload }) => {
  await ctx.events.log('test-job-ran', 0, { n: payload.n, pid: process.pid });
}, { leaseMs: 60_000 });

if (process.argv[2] === 'crash') {
  const claimed = await ctx.jobs.claimNext();
  process.stdout.write(`claimed ${claimed ? 1 : 0}\n`);
  // Dies holding the lease, as a process killed mid-run would.
  process.exit(3);
}
while ((await ctx.jobs.runDue()) > 0);
await ctx.close();
