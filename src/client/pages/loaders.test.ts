import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS } from '../../shared/constants';
import { ChunkLoadError, withChunkTimeout } from './loaders';

describe('page chunk loading (spec §9)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fails with ChunkLoadError when the chunk has not arrived after 120 s, not before', async () => {
    vi.useFakeTimers();
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    let outcome: unknown = 'pending';
    void withChunkTimeout(new Promise(() => undefined), 'topic').then(
      (v) => (outcome = v),
      (err: unknown) => (outcome = err),
    );
    await vi.advanceTimersByTimeAsync(119_999);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(ChunkLoadError);
    expect((outcome as Error).name).toBe('ChunkLoadError');
    expect((outcome as Error).message).toBe('Loading chunk topic failed (timeout)');
  });

  it('gives the chunk that arrives in time, and its own failure as it is', async () => {
    vi.useFakeTimers();
    const arriving = withChunkTimeout(new Promise((resolve) => setTimeout(() => resolve({ default: 'page' }), 119_000)), 'topic');
    await vi.advanceTimersByTimeAsync(119_000);
    await expect(arriving).resolves.toEqual({ default: 'page' });
    // Its timer is gone: nothing rejects later.
    expect(vi.getTimerCount()).toBe(0);
    await expect(withChunkTimeout(Promise.reject(new TypeError('Failed to fetch dynamically imported module')), 'users')).rejects.toThrow(TypeError);
  });
});
