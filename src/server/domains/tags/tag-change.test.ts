import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectLive, nextEvent } from '../../test/live-client.js';
import { startTestForum, type TestForum, CACHE_OFF } from '../../test/harness.js';
import { makeCategory, postTopic } from '../topics/testing.js';

// Defect 9: changing a topic's tags fired no action hook, so guests kept the cached page and
// readers in the topic heard nothing.
describe('changing a topic’s tags', () => {
  let forum: TestForum;
  beforeAll(async () => {
    // The guest page cache on, as in production.
    forum = await startTestForum({ env: { PALAVER_GUEST_CACHE_MS: '60000' } });
  });
  afterAll(async () => forum?.close());

  it('shows guests the new tags at once and tells readers in the topic', async () => {
    const { client } = await forum.loginAs({ admin: true });
    const { tid } = await postTopic(client, await makeCategory(forum.ctx), { tags: ['before'] });
    const guest = forum.client();
    const tagsOf = async () => ((await guest.get(`/api/topic/${tid}`)).body as { tags: { value: string }[] }).tags.map((t) => t.value);
    expect(await tagsOf()).toEqual(['before']);
    // Served from the cache now.
    if (!CACHE_OFF) expect((await guest.get(`/api/topic/${tid}`)).headers.get('x-palaver-cache')).toBe('hit');

    const { client: readerClient } = await forum.loginAs();
    const socket = await connectLive(readerClient);
    try {
      await call(socket, 'meta.rooms.enter', { enter: `topic_${tid}` });
      const heard = nextEvent<{ tid: number; tags: { value: string }[] }>(socket, 'event:topic_tags');
      const put = await client.put(`/api/v3/topics/${tid}/tags`, { tags: ['after', 'second'] });
      expect(put.status).toBe(200);
      expect(await tagsOf()).toEqual(['after', 'second']);
      const event = await heard;
      expect(event.tid).toBe(tid);
      expect(event.tags.map((t) => t.value).sort()).toEqual(['after', 'second']);

      const removed = nextEvent<{ tags: unknown[] }>(socket, 'event:topic_tags');
      expect((await client.del(`/api/v3/topics/${tid}/tags`)).status).toBe(200);
      expect(await tagsOf()).toEqual([]);
      expect((await removed).tags).toEqual([]);
    } finally {
      socket.disconnect();
    }
  });
});
