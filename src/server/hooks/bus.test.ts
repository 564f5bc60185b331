import { describe, expect, it, vi } from 'vitest';
import { HookBus } from './bus.js';
import { AppError } from '../http/errors.js';
import { loadBuiltinPlugins, type Plugin } from '../plugins/index.js';
import type { AppContext } from '../context.js';

const log = { error: vi.fn() };

describe('hook bus', () => {
  it('runs filters in priority order, each seeing the previous result', async () => {
    const bus = new HookBus(log);
    bus.filter('filter:parse.post', 'b', (d) => ({ ...d, html: `${d.html}b` }), 20);
    bus.filter('filter:parse.post', 'a', (d) => ({ ...d, html: `${d.html}a` }), 5);
    const out = await bus.runFilter('filter:parse.post', { content: 'x', html: '', kind: 'post', uid: 1 });
    expect(out.html).toBe('ab');
  });

  it('lets a filter refuse the data with an AppError', async () => {
    const bus = new HookBus(log);
    bus.filter('filter:post.create', 'spam', () => {
      throw new AppError('error:spam', 400);
    });
    await expect(bus.runFilter('filter:post.create', { uid: 1, tid: 1, content: 'buy', toPid: 0 })).rejects.toMatchObject({ key: 'error:spam' });
  });

  it('logs a failing action and carries on with the next', async () => {
    const bus = new HookBus(log);
    const seen: string[] = [];
    bus.action('action:user.delete', 'broken', () => {
      throw new Error('boom');
    });
    bus.action('action:user.delete', 'fine', () => {
      seen.push('fine');
    });
    await bus.fire('action:user.delete', { uid: 1, by: 1 });
    await bus.idle();
    expect(seen).toEqual(['fine']);
    expect(log.error).toHaveBeenCalled();
  });

  it('skips a plugin that fails to load and removes its hooks', async () => {
    const bus = new HookBus(log);
    const ctx = { hooks: bus, log, config: { url: 'http://x', relativePath: '' } } as unknown as AppContext;
    const broken: Plugin = {
      id: 'broken',
      init({ hooks }) {
        hooks.filter('filter:parse.post', 'broken', (d) => ({ ...d, html: 'broken' }));
        throw new Error('cannot start');
      },
    };
    const good: Plugin = { id: 'good', init: ({ hooks }) => hooks.filter('filter:parse.post', 'good', (d) => ({ ...d, html: 'good' })) };
    const loaded = await loadBuiltinPlugins(ctx, [broken, good]);
    expect(loaded).toEqual(['good']);
    const out = await bus.runFilter('filter:parse.post', { content: '', html: '', kind: 'post', uid: 0 });
    expect(out.html).toBe('good');
  });
});
