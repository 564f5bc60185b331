// The palaver CLI (started by main.ts once V8's memory flags are set).
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createContext, type AppContext } from './context.js';
import { SYSTEM, prepareDatabase, setupForum } from './setup.js';
import { startFirstRun } from './domains/admin/setup-routes.js';
import { watchClientBuild } from './realtime/live-reload.js';
import { translate } from './i18n.js';
import { AppError } from './http/errors.js';
import { startConfig, startMemoryMode, startYoungGenerationCap } from './memory-start.js';
import { growYoungGenerationUpTo } from './memory.js';

const USAGE = `Usage: palaver <command> [options]

Commands:
  start                         migrate, then serve the forum (the default)
  setup --admin-username U --admin-email E --admin-password P
                                create the first administrator and a first category
  migrate                       apply database migrations
  user create --username U --email E --password P [--admin]
  user password --username U --password P
  token create --uid N          print a new API token acting as member N
  token create --master         print a new master token (acts as the _uid it is given)
  seed --demo                   fill a new forum with demo categories, members and topics
  reindex                       rebuild the search index from every post (with progress)
  backup [--out FILE]           write a backup (every table and uploaded file) to FILE, or
                                into the file store's backups/ (listed on the admin page)
  restore FILE [--replace]      restore a backup into the configured database, which must be
                                empty (SQLite or PostgreSQL: moving between them is a restore);
                                --replace replaces a forum that has data
  storage migrate --to s3|disk  copy every file between the data dir and PALAVER_STORAGE's bucket
  import nodebb --from URL [--uploads DIR] [--dry-run] [--resume] [--batch N]
                                import a NodeBB forum (redis://host:6379/<db> or its PostgreSQL,
                                postgres://user@host/db) into the configured database, ids kept;
                                DIR: NodeBB's public/uploads, copied into the file store;
                                N: records per transaction and checkpoint (default 500);
                                see docs/import.md
  import verify --from URL      compare counts and a sample of topics between NodeBB and Palaver
  outbox [list]                 the durable side effects that failed for good (and how many wait)
  outbox retry [ID]             run failed outbox rows again (all, or row ID)
  config list                   print every forum setting and its value
  config get <key>              print one setting
  config set <key> <value>      change a setting (checked against its type and range);
                                running servers pick it up within seconds

Configuration comes from environment variables and config.json (see README).`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function withContext<T>(config: Config, fn: (ctx: AppContext) => Promise<T>): Promise<T> {
  const ctx = createContext(config, pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel }));
  try {
    await prepareDatabase(ctx);
    const { loadBuiltinPlugins } = await import('./plugins/index.js');
    await loadBuiltinPlugins(ctx);
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}

function required(values: Record<string, unknown>, ...names: string[]): string[] {
  return names.map((n) => {
    const v = values[n];
    if (typeof v !== 'string' || v === '') fail(`Missing --${n}\n\n${USAGE}`);
    return v;
  });
}

async function start(config: Config): Promise<void> {
  const app = await buildApp(config);
  await prepareDatabase(app.ctx);
  if (config.admin) {
    const uid = await setupForum(app.ctx, config.admin);
    if (uid) app.log.info({ uid }, 'created the first administrator from PALAVER_ADMIN_*');
  }
  // An empty database (no member, no PALAVER_ADMIN_*): the web setup page creates the first administrator.
  if (await startFirstRun(app.ctx)) app.log.warn(`No administrator yet: open ${config.url}/setup to set up the forum`);
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  // `fast`: the young generation, held while the modules loaded, may grow to its cap now.
  if (startYoungGenerationCap !== null) growYoungGenerationUpTo(startYoungGenerationCap);
  // Recurring clean-ups and queued jobs (each run once across every process serving the forum).
  await app.ctx.jobs.start();
  // Durable side effects left by a process that died (or this one before a restart), once their lease ends.
  app.ctx.outbox.start();
  // `npm run dev`: administrators' pages reload after the client is rebuilt (event:livereload).
  if (process.env.PALAVER_LIVERELOAD === '1') watchClientBuild(app.ctx, path.resolve(process.cwd(), 'dist'));
  app.log.info({ memory: startMemoryMode }, `Palaver is listening at ${config.url}`);
}

/** The configuration, or the end of the command with one line per bad value. */
function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}

/** `palaver config …`: its own argument handling, so values such as "-1" are not read as options. */
async function configCli(argv: string[]): Promise<void> {
  const cfg = readConfig();
  const { configCommand } = await import('./domains/settings/cli.js');
  const result = await withContext(cfg, (ctx) => configCommand(ctx, SYSTEM, argv));
  if (result.code !== 0) fail(result.out);
  process.stdout.write(`${result.out}\n`);
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'config' && !argv.includes('--help') && !argv.includes('-h')) return configCli(argv.slice(1));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'admin-username': { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      username: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      admin: { type: 'boolean' },
      uid: { type: 'string' },
      master: { type: 'boolean' },
      demo: { type: 'boolean' },
      out: { type: 'string' },
      replace: { type: 'boolean' },
      to: { type: 'string' },
      from: { type: 'string' },
      'dry-run': { type: 'boolean' },
      resume: { type: 'boolean' },
      uploads: { type: 'string' },
      batch: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command = 'start', sub] = positionals;
  if (values.help || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // `palaver start` read it before the server's modules loaded (memory-start.ts).
  const config = startConfig ?? readConfig();

  switch (command) {
    case 'start':
      return start(config);
    case 'migrate':
      return withContext(config, async () => {
        process.stdout.write('Migrations are up to date.\n');
      });
    case 'setup': {
      const [username, email, password] = required(values, 'admin-username', 'admin-email', 'admin-password');
      return withContext(config, async (ctx) => {
        const uid = await setupForum(ctx, { username: username!, email: email!, password: password! });
        process.stdout.write(uid ? `Created administrator ${username} (uid ${uid}).\n` : 'An administrator already exists; nothing to do.\n');
      });
    }
    case 'user':
      if (sub === 'create') {
        const [username, password] = required(values, 'username', 'password');
        return withContext(config, async (ctx) => {
          const user = await ctx.users.create({ username: username!, email: values.email ?? null, password: password! }, { admin: !!values.admin });
          process.stdout.write(`Created ${values.admin ? 'administrator' : 'member'} ${user.username} (uid ${user.uid}).\n`);
        });
      }
      if (sub === 'password') {
        const [username, password] = required(values, 'username', 'password');
        return withContext(config, async (ctx) => {
          const row = await ctx.users.byUsername(username!);
          if (!row) fail(`No member named ${username}`);
          await ctx.users.changePassword(SYSTEM, row.uid, undefined, password!);
          process.stdout.write(`Password changed for ${row.username}; their sessions were ended.\n`);
        });
      }
      return fail(USAGE);
    case 'token':
      if (sub === 'create') {
        if (!values.master && !values.uid) fail(`token create needs --uid N or --master\n\n${USAGE}`);
        return withContext(config, async (ctx) => {
          const uid = values.master ? 0 : Number(values.uid);
          if (!values.master && !(await ctx.users.get(uid))) fail(`No member with uid ${values.uid}`);
          process.stdout.write(`${await ctx.auth.createToken(uid, values.master ? 'master (CLI)' : 'CLI')}\n`);
        });
      }
      return fail(USAGE);
    case 'reindex':
      return withContext(config, async (ctx) => {
        const started = Date.now();
        const bar = (done: number, total: number) => {
          const share = total ? done / total : 1;
          const filled = Math.round(share * 30);
          // A redrawn line on a terminal; one line per step when piped into a log.
          const line = `[${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${done}/${total} posts`;
          process.stderr.write(process.stderr.isTTY ? `\r${line}` : `${line}\n`);
        };
        const n = await ctx.search.reindex(bar);
        if (process.stderr.isTTY) process.stderr.write('\n');
        process.stdout.write(`Indexed ${n} posts in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
      });
    case 'backup': {
      const { backupCommand } = await import('./domains/backups/cli.js');
      await backupCommand(config, values.out);
      return;
    }
    case 'restore': {
      if (!sub) fail(`restore needs the backup's file\n\n${USAGE}`);
      const { restoreCommand } = await import('./domains/backups/cli.js');
      await restoreCommand(config, sub, !!values.replace);
      return;
    }
    case 'storage': {
      if (sub !== 'migrate' || !values.to) fail(`storage migrate needs --to s3 or --to disk\n\n${USAGE}`);
      const { storageMigrate } = await import('./domains/backups/cli.js');
      await storageMigrate(config, values.to);
      return;
    }
    case 'import': {
      if ((sub !== 'nodebb' && sub !== 'verify') || !values.from) fail(`import needs nodebb or verify, and --from URL\n\n${USAGE}`);
      const { importCommand, verifyCommand } = await import('./domains/import/cli.js');
      const from = values.from;
      return withContext(config, async (ctx) => {
        const batch = values.batch === undefined ? undefined : Number(values.batch);
        if (batch !== undefined && !(Number.isInteger(batch) && batch >= 1 && batch <= 10_000)) fail('--batch must be a whole number from 1 to 10000');
        if (sub === 'nodebb') await importCommand(ctx, { from, dryRun: !!values['dry-run'], resume: !!values.resume, uploads: values.uploads, batch });
        else if (!(await verifyCommand(ctx, from))) process.exitCode = 1;
      });
    }
    case 'outbox': {
      const { outboxCommand } = await import('./core/outbox-cli.js');
      return withContext(config, async (ctx) => {
        const result = await outboxCommand(ctx.db, positionals.slice(1));
        if (result.code !== 0) fail(result.out);
        process.stdout.write(`${result.out}\n`);
      });
    }
    case 'seed': {
      if (!values.demo) fail(`seed needs --demo\n\n${USAGE}`);
      const { seedDemo } = await import('./seed/demo.js');
      return withContext(config, async (ctx) => {
        const summary = await seedDemo(ctx);
        process.stdout.write(`${summary}\n`);
      });
    }
    default:
      fail(`Unknown command "${command}"\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof AppError) fail(`Error: ${translate(err.key, err.params)}`);
  if (err instanceof Error && 'key' in err && typeof err.key === 'string' && err.key.startsWith('error:')) fail(`Error: ${translate(err.key, (err as { params?: (string | number)[] }).params ?? [])}`);
  fail(err instanceof Error ? (err.stack ?? err.message) : String(err));
});
