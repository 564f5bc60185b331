import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const dir = () => mkdtempSync(path.join(tmpdir(), 'palaver-config-'));

describe('config', () => {
  it('defaults to SQLite in ./data on 127.0.0.1:4567', () => {
    const cwd = dir();
    const c = loadConfig({}, cwd);
    expect(c.port).toBe(4567);
    expect(c.host).toBe('127.0.0.1');
    expect(c.databaseUrl).toBeNull();
    expect(c.dataDir).toBe(path.join(cwd, 'data'));
    expect(c.url).toBe('http://127.0.0.1:4567');
    expect(c.relativePath).toBe('');
  });

  it('generates a secret once and keeps it in the data dir', () => {
    const cwd = dir();
    const a = loadConfig({}, cwd);
    const b = loadConfig({}, cwd);
    expect(a.secret.length).toBeGreaterThanOrEqual(32);
    expect(b.secret).toBe(a.secret);
    expect(readFileSync(path.join(cwd, 'data', 'secret'), 'utf8').trim()).toBe(a.secret);
  });

  it('takes the relative path from a sub-path URL', () => {
    const c = loadConfig({ PALAVER_URL: 'https://example.com/forum/', PALAVER_SECRET: 'x'.repeat(32) }, dir());
    expect(c.url).toBe('https://example.com/forum');
    expect(c.relativePath).toBe('/forum');
  });

  it('reads config.json, with environment variables winning', () => {
    const cwd = dir();
    writeFileSync(path.join(cwd, 'config.json'), JSON.stringify({ port: 5000, host: '0.0.0.0', secret: 'y'.repeat(20) }));
    const c = loadConfig({ PORT: '6000' }, cwd);
    expect(c.port).toBe(6000);
    expect(c.host).toBe('0.0.0.0');
    expect(c.secret).toBe('y'.repeat(20));
  });

  it('lists every bad value, one line each', () => {
    try {
      loadConfig({ PORT: 'abc', PALAVER_URL: 'ftp://x', DATABASE_URL: 'mysql://u:secretpw@h/db', REDIS_URL: 'http://r', NODE_ENV: 'staging', PALAVER_SECRET: 'short' }, dir());
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems;
      expect(problems.map((p) => p.split(':')[0])).toEqual(['PORT', 'PALAVER_URL', 'DATABASE_URL', 'REDIS_URL', 'NODE_ENV', 'PALAVER_SECRET']);
      // A password in a bad URL is never echoed back.
      expect(problems.join('\n')).not.toContain('secretpw');
    }
  });

  it('refuses a partial first-admin set', () => {
    expect(() => loadConfig({ PALAVER_ADMIN_USERNAME: 'admin', PALAVER_SECRET: 'x'.repeat(32) }, dir())).toThrow(/set all three or none/);
  });

  it('reports a broken config.json', () => {
    const cwd = dir();
    writeFileSync(path.join(cwd, 'config.json'), '{nope');
    expect(() => loadConfig({}, cwd)).toThrow(/not valid JSON/);
  });

  it('reads the memory mode from PALAVER_MEMORY or config.json, auto by default, and refuses others', () => {
    const cwd = dir();
    expect(loadConfig({}, cwd).memory).toBe('auto');
    expect(loadConfig({ PALAVER_MEMORY: 'low' }, cwd).memory).toBe('low');
    writeFileSync(path.join(cwd, 'config.json'), JSON.stringify({ memory: 'fast' }));
    expect(loadConfig({}, cwd).memory).toBe('fast');
    expect(loadConfig({ PALAVER_MEMORY: 'low' }, cwd).memory).toBe('low');
    expect(() => loadConfig({ PALAVER_MEMORY: 'tiny' }, cwd)).toThrow('PALAVER_MEMORY: expected auto, low, fast, got "tiny"');
  });
});
