import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { startTestForum, type TestForum } from '../test/harness.js';

describe('websocketAddress (PALAVER_WEBSOCKET_ADDRESS)', () => {
  let forum: TestForum;
  beforeAll(async () => {
    forum = await startTestForum({ env: { PALAVER_WEBSOCKET_ADDRESS: 'https://live.example.org/' } });
  });
  afterAll(async () => forum?.close());

  it('is sent to clients in their config (the socket client connects there)', async () => {
    expect((await forum.client().get('/api/config')).body.websocketAddress).toBe('https://live.example.org');
    // The page's content-security policy lets the browser connect there.
    const csp = (await forum.client().get('/')).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/connect-src 'self' https:\/\/live\.example\.org wss:\/\/live\.example\.org/);
  });

  it("defaults to '' (this server) and refuses what is not an origin", () => {
    expect(loadConfig({ PALAVER_SECRET: 'x'.repeat(32), PALAVER_DATA_DIR: forum.ctx.config.dataDir }).websocketAddress).toBe('');
    expect(() => loadConfig({ PALAVER_SECRET: 'x'.repeat(32), PALAVER_DATA_DIR: forum.ctx.config.dataDir, PALAVER_WEBSOCKET_ADDRESS: 'live.example.org/socket' })).toThrow(ConfigError);
  });
});
