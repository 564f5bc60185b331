// The memory modes (PALAVER_MEMORY): which mode a machine gets, which V8 flags each sets, and,
// in a process of its own (V8 flags are the whole process's), that `low` really holds the
// young generation at its first size while `fast` lets it grow, up to its cap, once told.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { LOW_MEMORY_BELOW, YOUNG_GENERATION_CAP, availableMemory, memoryFlags, resolveMemoryMode } from './memory.js';
import { freePort } from './test/net.js';
// @ts-expect-error: a plain JavaScript module of the build scripts, without types
import { START_ENV } from '../../scripts/start-env.mjs';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(os.tmpdir(), 'palaver-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('memory modes', () => {
  it('auto is low on SQLite below 1 GB for the process and fast from there or on PostgreSQL; low and fast are as given', () => {
    expect(resolveMemoryMode('auto', false, 512 * 1024 ** 2)).toBe('low');
    expect(resolveMemoryMode('auto', false, LOW_MEMORY_BELOW - 1)).toBe('low');
    expect(resolveMemoryMode('auto', false, LOW_MEMORY_BELOW)).toBe('fast');
    expect(resolveMemoryMode('auto', false, 24 * 1024 ** 3)).toBe('fast');
    expect(resolveMemoryMode('auto', true, 512 * 1024 ** 2)).toBe('fast');
    expect(resolveMemoryMode('low', true, 24 * 1024 ** 3)).toBe('low');
    expect(resolveMemoryMode('fast', false, 256 * 1024 ** 2)).toBe('fast');
  });

  it('reads the memory the process has, no more than the machine', () => {
    const available = availableMemory();
    expect(available).toBeGreaterThan(64 * 1024 ** 2);
    expect(available).toBeLessThanOrEqual(os.totalmem());
  });

  it('sets the flags of the mode, leaving those the operator gave', () => {
    expect(memoryFlags('fast', '')).toEqual(['--heap-growing-percent=15', '--semi-space-growth-factor=1']);
    expect(memoryFlags('low', '')).toEqual(['--heap-growing-percent=30', '--semi-space-growth-factor=1']);
    expect(memoryFlags('low', '--heap-growing-percent=50')).toEqual(['--semi-space-growth-factor=1']);
    expect(memoryFlags('low', '--max-semi-space-size=4 --heap_growing_percent=20')).toEqual([]);
    expect(memoryFlags('fast', '--max-old-space-size=512 --heap-growing-percent=60')).toEqual(['--semi-space-growth-factor=1']);
    expect(memoryFlags('fast', '--max-semi-space-size=16 --heap-growing-percent=60')).toEqual([]);
  });

  // A process applies a mode (and, given a cap, lets the young generation grow up to it, as
  // `palaver start` does once it listens in `fast`), then allocates objects that live through a
  // few young collections (what makes V8 grow its young generation), a little at a time with a
  // turn of the event loop between (the cap is checked after each collection), and reports the
  // young generation's size.
  // With `cap` 'postgres', the cap is the one the mode gives a forum on PostgreSQL.
  async function youngGenerationAfterChurn(mode: 'low' | 'fast', cap?: number | 'postgres'): Promise<number> {
    const memory = pathToFileURL(path.resolve(import.meta.dirname, 'memory.ts')).href;
    const script = `
      const { applyMemoryMode, growYoungGenerationUpTo } = await import(${JSON.stringify(memory)});
      const v8 = await import('node:v8');
      const applied = applyMemoryMode(${JSON.stringify(mode)}, ${cap === 'postgres'});
      if (applied.mode !== ${JSON.stringify(mode)}) throw new Error('mode not applied');
      const stop = ${cap === undefined ? 'null' : `growYoungGenerationUpTo(${cap === 'postgres' ? 'applied.youngGenerationCap' : cap})`};
      const keep = [];
      for (let r = 0; r < 1500; r++) {
        const batch = [];
        for (let i = 0; i < 2000; i++) batch.push({ a: i, b: 'x' + i, c: [i, i] });
        keep.push(batch);
        if (keep.length > 200) keep.shift();
        await new Promise((resolve) => setImmediate(resolve));
      }
      stop?.();
      const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      process.stdout.write(String(young.space_size));
    `;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, NODE_OPTIONS: '' },
      timeout: 60_000,
    });
    return Number(stdout);
  }

  it('low holds the young generation at its first size under allocation; fast holds it until told, then lets it grow up to its cap', async () => {
    const MB = 1024 ** 2;
    const [low, held, capped, postgres, uncapped] = await Promise.all([
      youngGenerationAfterChurn('low'),
      youngGenerationAfterChurn('fast'),
      youngGenerationAfterChurn('fast', 8 * MB),
      youngGenerationAfterChurn('fast', 'postgres'),
      youngGenerationAfterChurn('fast', 1024 * MB),
    ]);
    // Two 1 MB semi-spaces (and V8's page rounding) against up to two 16 MB ones.
    expect(low).toBeGreaterThan(0);
    expect(low).toBeLessThanOrEqual(4 * MB);
    expect(held).toBeLessThanOrEqual(4 * MB);
    expect(capped).toBeGreaterThan(4 * MB);
    expect(capped).toBeLessThanOrEqual(8 * MB);
    // On PostgreSQL, fast's cap is two 8 MB semi-spaces (YOUNG_GENERATION_CAP.postgres).
    expect(postgres).toBeGreaterThan(8 * MB);
    expect(postgres).toBeLessThanOrEqual(YOUNG_GENERATION_CAP.postgres);
    expect(uncapped).toBeGreaterThanOrEqual(16 * MB);
  }, 90_000);

  // The real `palaver start`, asked over IPC for its young generation once it has served pages:
  // the flags must be set before the server's two thousand modules load, or V8 has grown the
  // young generation to its largest by the time they could hold it.
  async function startedYoungGeneration(mode: 'low' | 'fast'): Promise<{ young: number; log: string }> {
    const probe = path.join(dir, 'probe.mjs');
    writeFileSync(
      probe,
      "import v8 from 'node:v8';\nprocess.on('message', () => process.send(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size));\n",
    );
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', pathToFileURL(probe).href, path.resolve(import.meta.dirname, 'main.ts'), 'start'], {
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        DATABASE_URL: '',
        REDIS_URL: '',
        PALAVER_DATA_DIR: path.join(dir, mode),
        PALAVER_MEMORY: mode,
        PORT: String(port),
        HOST: '127.0.0.1',
        PALAVER_URL: url,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let log = '';
    child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    try {
      let status = 0;
      for (let i = 0; i < 600 && !status; i++) {
        status = await fetch(`${url}/setup`).then(
          (r) => r.status,
          () => 0,
        );
        if (!status) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
      for (let i = 0; i < 50; i++) expect((await fetch(`${url}/setup`)).status).toBe(200);
      const young = await new Promise<number>((resolve) => {
        child.once('message', (m) => resolve(Number(m)));
        child.send('young');
      });
      return { young, log };
    } finally {
      child.kill();
      await new Promise((resolve) => child.on('exit', resolve));
    }
  }

  it('palaver start in the low mode holds the young generation from the start; in the fast mode never past its cap', async () => {
    const low = await startedYoungGeneration('low');
    expect(low.log).toContain('"memory":"low"');
    expect(low.young).toBeLessThanOrEqual(4 * 1024 ** 2);
    // Without the hold while the modules load, V8 had grown it to 32 MB by the first page.
    const fast = await startedYoungGeneration('fast');
    expect(fast.log).toContain('"memory":"fast"');
    expect(fast.young).toBeLessThanOrEqual(YOUNG_GENERATION_CAP.sqlite);
  }, 180_000);
});

describe('the environment npm start gives the process', () => {
  const repo = path.resolve(import.meta.dirname, '../..');
  const scripts = (JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

  it.each(['start', 'palaver'])('npm run %s sets each of START_ENV unless the operator did', async (name) => {
    const script = scripts[name]!;
    // What the script's shell does before it runs node, followed by a node that prints what it was given.
    const prefix = script.slice(0, script.indexOf('node bin/palaver.mjs'));
    const keys = Object.keys(START_ENV);
    const probe = `${prefix}node -e 'console.log(JSON.stringify(${JSON.stringify(keys)}.map((k) => process.env[k])))'`;
    const base = { PATH: process.env.PATH };
    const given = await run('sh', ['-c', probe], { env: base });
    expect(JSON.parse(given.stdout)).toEqual(Object.values(START_ENV));
    const operator = Object.fromEntries(keys.map((k) => [k, '7']));
    const kept = await run('sh', ['-c', probe], { env: { ...base, ...operator } });
    expect(JSON.parse(kept.stdout)).toEqual(keys.map(() => '7'));
  });
});
