// The libraries only a few requests need (images, security keys, mail, the OpenAPI document) are
// imported on their first use, not at start-up: together some 27 MB of a process's memory and
// 200–400 ms of its start (docs/architecture.md, "Server"). A value import added anywhere on the
// start-up path would bring them back; this starts the real server and watches what it resolves.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './test/net.js';

const LAZY = ['sharp', '@simplewebauthn/server', 'nodemailer', '@fastify/swagger', '@aws-sdk/client-s3', 'tar-stream', '@fedify/fedify'];
const dir = mkdtempSync(path.join(tmpdir(), 'palaver-lazy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('start-up', () => {
  it('serves pages without importing sharp, @simplewebauthn/server, nodemailer, @fastify/swagger, the AWS SDK, tar-stream or Fedify', async () => {
    // A module resolve hook (node:module register) that reports every import of the three.
    writeFileSync(
      path.join(dir, 'hooks.mjs'),
      `export async function resolve(specifier, context, next) {
  if (${JSON.stringify(LAZY)}.includes(specifier)) process.stderr.write('IMPORTED ' + specifier + '\\n');
  return next(specifier, context);
}\n`,
    );
    writeFileSync(
      path.join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)});\n`,
    );
    // The hook itself is proven by a process that does import one of them.
    const control = spawn(process.execPath, [
      '--import',
      pathToFileURL(path.join(dir, 'register.mjs')).href,
      '--input-type=module',
      '-e',
      "await import('nodemailer')",
    ]);
    let controlErr = '';
    control.stderr.on('data', (d: Buffer) => (controlErr += d.toString()));
    await new Promise((resolve) => control.on('exit', resolve));
    expect(controlErr).toContain('IMPORTED nodemailer');

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', pathToFileURL(path.join(dir, 'register.mjs')).href, path.resolve(import.meta.dirname, 'main.ts'), 'start'],
      {
        env: {
          ...process.env,
          DATABASE_URL: '',
          REDIS_URL: '',
          PALAVER_DATA_DIR: path.join(dir, 'data'),
          PORT: String(port),
          HOST: '127.0.0.1',
          PALAVER_URL: url,
          LOG_LEVEL: 'error',
        },
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      let status = 0;
      for (let i = 0; i < 600 && !status; i++) {
        status = await fetch(`${url}/`, { redirect: 'manual' }).then(
          (r) => r.status,
          () => 0,
        );
        if (!status) await new Promise((r) => setTimeout(r, 100));
      }
      // An empty forum sends its first visitor to the setup page, rendered by React on the server.
      expect(status).toBe(302);
      const setup = await fetch(`${url}/setup`);
      expect(setup.status).toBe(200);
      expect(await setup.text()).toContain('<form');
      expect(stderr).not.toContain('IMPORTED');
      // The OpenAPI document loads @fastify/swagger when first asked for (http/openapi.ts).
      const doc = await fetch(`${url}/api/v3/openapi.json`);
      expect(doc.status).toBe(200);
      expect(((await doc.json()) as { openapi: string }).openapi).toMatch(/^3\./);
      // The hook's line comes through the child's stderr pipe, which may trail the answer: bounded wait.
      for (let i = 0; i < 50 && !stderr.includes('IMPORTED @fastify/swagger'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(stderr).toContain('IMPORTED @fastify/swagger');
    } finally {
      child.kill();
      await new Promise((resolve) => child.on('exit', resolve));
    }
  }, 120_000);
});
