import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../test/harness.js';
import { SYSTEM } from '../../setup.js';

let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

describe('/post/:pid', () => {
  it('redirects to the post in its topic, counting from 1', async () => {
    const category = await forum.ctx.categories.create(SYSTEM, { name: 'Redirects' });
    const { client, user } = await forum.loginAs();
    const author = await forum.ctx.privileges.viewer(user.uid);
    const { topic } = await forum.ctx.topics.create(author, { cid: category.cid, title: 'Where is my post', content: 'The first post of the topic.' });
    const { post } = await forum.ctx.posts.reply(author, topic.tid, { content: 'The second post of the topic.' });
    const res = await client.get(`/api/post/${post.pid}`);
    expect(res.headers.get('x-redirect')).toBe(`/topic/${topic.tid}/${topic.slug}/2`);
    const html = await forum.client().get(`/post/${post.pid}`);
    expect(html.status).toBe(302);
    expect(html.headers.get('location')).toBe(`/topic/${topic.tid}/${topic.slug}/2`);
    expect((await forum.client().get('/api/post/999999')).status).toBe(404);
  });
});
