import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../test/harness.js';
import { seedDemo } from './demo.js';
import { CATEGORIES, MEMBERS, TOPICS } from './demo-content.js';

let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

describe('seed --demo', () => {
  it('fills a new forum that a guest can read', async () => {
    const summary = await seedDemo(forum.ctx);
    expect(summary).toContain(`${CATEGORIES.length} categories`);
    expect(summary).toContain(`${MEMBERS.length} members`);
    expect(summary).toContain(`${TOPICS.length} topics`);
    const guest = forum.client();
    const home = await guest.get('/api/categories');
    expect(home.status).toBe(200);
    const names = home.body.categories.map((c: { name: string }) => c.name);
    expect(names).toEqual(expect.arrayContaining(CATEGORIES.map((c) => c.name)));
    const general = home.body.categories.find((c: { name: string }) => c.name === 'General Discussion');
    expect(general.totalTopicCount).toBeGreaterThan(0);
    const recent = await guest.get('/api/recent');
    expect(recent.body.topics.length).toBe(TOPICS.length);
    const topic = recent.body.topics[0];
    const page = await guest.get(`/api/topic/${topic.slug}`);
    expect(page.status).toBe(200);
    expect(page.body.posts.length).toBe(topic.postcount);
    // Counters add up: every post of every topic is counted once in its category.
    const totalPosts = home.body.categories.reduce((n: number, c: { totalPostCount: number }) => n + c.totalPostCount, 0);
    const topicPosts = recent.body.topics.reduce((n: number, t: { postcount: number }) => n + t.postcount, 0);
    expect(totalPosts).toBe(topicPosts);
  }, 120_000);
});
