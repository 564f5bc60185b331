import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { requestLoggerFactory } from './request-logger.js';

// Each request's logger is made into pino's child only when something logs through it: what it
// logs must carry the request's id as Fastify's own child would, and its level be the parent's.
function appLogging(level = 'info', quiet = true) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({ loggerInstance: pino({ level }, stream), childLoggerFactory: requestLoggerFactory, disableRequestLogging: quiet });
  app.get('/warn', async (req) => {
    req.log.warn({ what: 'odd' }, 'something odd');
    return { level: req.log.level };
  });
  app.get('/quiet', async (req) => ({ level: req.log.level }));
  app.get('/child', async (req) => {
    req.log.child({ part: 'inner' }).error('from a child');
    return {};
  });
  app.get('/fail', async () => {
    throw new Error('broken on purpose');
  });
  return { app, lines };
}

describe('request loggers', () => {
  it('log with the request id, at the parent’s level', async () => {
    const { app, lines } = appLogging();
    const res = await app.inject({ url: '/warn' });
    expect(res.json()).toEqual({ level: 'info' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, what: 'odd', msg: 'something odd', reqId: 'req-1' });
    await app.close();
  });

  it('log nothing for a request that logs nothing, and give the parent’s level', async () => {
    const { app, lines } = appLogging('warn');
    expect((await app.inject({ url: '/quiet' })).json()).toEqual({ level: 'warn' });
    expect(lines).toEqual([]);
    await app.close();
  });

  it('make children that keep the request id, and log a failed request’s error with it', async () => {
    const { app, lines } = appLogging();
    await app.inject({ url: '/child' });
    expect(lines[0]).toMatchObject({ level: 50, part: 'inner', msg: 'from a child', reqId: 'req-1' });
    // Fastify's own logging of a request (on at the debug level and below) goes through it too.
    const { app: logging, lines: all } = appLogging('debug', false);
    const res = await logging.inject({ url: '/fail' });
    expect(res.statusCode).toBe(500);
    expect(all.map((l) => [l.reqId, l.msg])).toEqual([
      ['req-1', 'incoming request'],
      ['req-1', 'broken on purpose'],
      ['req-1', 'request completed'],
    ]);
    expect(all[1]).toMatchObject({ level: 50, err: { message: 'broken on purpose' } });
    await logging.close();
    await app.close();
  });
});
