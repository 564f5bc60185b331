import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCategory, postReply, postTopic } from '../../domains/topics/testing.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import { call, connectLive } from '../../test/live-client.js';
import { linkMentions, mentionedSlugs } from './parse.js';

let forum: TestForum;

beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

/** The mention notifications a member has. */
async function mentionsOf(uid: number) {
  return forum.ctx.db.selectFrom('notifications').selectAll().where('uid', '=', uid).where('type', '=', 'mention').execute();
}

describe('mention parsing', () => {
  it('finds @names in text, not in code, links or e-mail addresses; a trailing dot ends the name', () => {
    const html = '<p>Hi @Ann and @bob. mail x@carl.org <code>@dan</code></p><pre><code>@eve\n</code></pre><p><a href="/x">@fay</a> @ann</p>';
    expect(mentionedSlugs(html)).toEqual(['ann', 'bob']);
  });
  it('links only the names given', () => {
    const links = new Map([['ann', { href: '/user/ann', kind: 'user' as const }]]);
    expect(linkMentions('<p>@Ann, @nobody</p>', links)).toBe('<p><a href="/user/ann" class="plugin-mentions-user plugin-mentions-a">@Ann</a>, @nobody</p>');
  });
});

describe('mentions in posts', () => {
  it('links existing members and groups in the rendered post, not unknown names or code', async () => {
    const cid = await makeCategory(forum.ctx, 'Mentions');
    const ann = await forum.createUser({ username: 'mention-ann' });
    const { client } = await forum.loginAs();
    const t = await postTopic(client, cid, { content: 'Hello @mention-ann and @administrators and @ghost-user, `@mention-ann`' });
    const post = await forum.ctx.db.selectFrom('posts').select('content_html').where('pid', '=', t.mainPid).executeTakeFirstOrThrow();
    expect(post.content_html).toContain(`<a href="/user/${ann.userslug}" class="plugin-mentions-user plugin-mentions-a">@mention-ann</a>`);
    expect(post.content_html).toContain('<a href="/groups/administrators" class="plugin-mentions-group plugin-mentions-a">@administrators</a>');
    expect(post.content_html).toContain('@ghost-user');
    expect(post.content_html).not.toContain('/user/ghost-user');
    expect(post.content_html).toContain('<code>@mention-ann</code>');
  });

  it('notifies a mentioned member who can read the post, not one who cannot, nor the author', async () => {
    const cid = await makeCategory(forum.ctx, 'Notify');
    const hidden = await makeCategory(forum.ctx, 'Hidden');
    const reader = await forum.createUser({ username: 'mention-reader' });
    const outsider = await forum.createUser({ username: 'mention-outsider' });
    // Only administrators read the hidden category; the outsider is a plain member.
    await forum.ctx.privileges.take(hidden, ['read', 'topics:read'], 'registered-users');
    await forum.ctx.privileges.take(hidden, ['read', 'topics:read'], 'guests');
    const author = await forum.loginAs({ admin: true });
    const t = await postTopic(author.client, cid, { content: 'Question for @mention-reader' });
    await postTopic(author.client, hidden, { content: 'Secret for @mention-outsider and @mention-reader' });
    await postReply(author.client, t.tid, `Self @${author.user.userslug}`);
    await forum.ctx.hooks.idle();
    await forum.ctx.hooks.idle();
    const got = await mentionsOf(reader.uid);
    expect(got).toHaveLength(1);
    expect(got[0]!.tid).toBe(t.tid);
    expect(await mentionsOf(outsider.uid)).toHaveLength(0);
    expect(await mentionsOf(author.user.uid)).toHaveLength(0);
  });

  it('a member who blocked the author is not notified', async () => {
    const cid = await makeCategory(forum.ctx, 'Blocks');
    const blocker = await forum.loginAs();
    const author = await forum.loginAs();
    expect((await blocker.client.put(`/api/v3/users/${author.user.uid}/block`)).status).toBe(200);
    await postTopic(author.client, cid, { content: `Hello @${blocker.user.userslug}` });
    await forum.ctx.hooks.idle();
    await forum.ctx.hooks.idle();
    expect(await mentionsOf(blocker.user.uid)).toHaveLength(0);
  });

  it('on edit, only a newly added mention notifies', async () => {
    const cid = await makeCategory(forum.ctx, 'Edits');
    const first = await forum.createUser({ username: 'mention-first' });
    const later = await forum.createUser({ username: 'mention-later' });
    const { client } = await forum.loginAs();
    const t = await postTopic(client, cid, { content: 'Hi @mention-first, welcome' });
    await forum.ctx.hooks.idle();
    await forum.ctx.db.deleteFrom('notifications').where('uid', '=', first.uid).execute();
    const res = await client.put(`/api/v3/posts/${t.mainPid}`, { content: 'Hi @mention-first and @mention-later, welcome' });
    expect(res.status).toBe(200);
    await forum.ctx.hooks.idle();
    await forum.ctx.hooks.idle();
    expect(await mentionsOf(first.uid)).toHaveLength(0);
    expect(await mentionsOf(later.uid)).toHaveLength(1);
  });
});

describe('plugins.mentions socket calls', () => {
  it('userSearch finds members by prefix without the searcher; getTopicUsers lists posters; listGroups the groups', async () => {
    const cid = await makeCategory(forum.ctx, 'Calls');
    const me = await forum.loginAs();
    await forum.createUser({ username: 'zeta-one' });
    await forum.createUser({ username: 'Zeta-two' });
    const other = await forum.loginAs();
    const t = await postTopic(me.client, cid);
    await postReply(other.client, t.tid);
    const live = await connectLive(me.client);
    try {
      const found = await call<{ username: string }[]>(live, 'plugins.mentions.userSearch', { query: 'zeta', composerObj: {} });
      expect(found.map((u) => u.username)).toEqual(['zeta-one', 'Zeta-two']);
      const self = await call<{ uid: number }[]>(live, 'plugins.mentions.userSearch', { query: me.user.username });
      expect(self.map((u) => u.uid)).not.toContain(me.user.uid);
      const posters = await call<{ uid: number }[]>(live, 'plugins.mentions.getTopicUsers', { tid: t.tid });
      expect(posters.map((u) => u.uid)).toEqual([other.user.uid]);
      expect(await call(live, 'plugins.mentions.listGroups')).toEqual(expect.arrayContaining(['administrators']));
      await expect(call(live, 'plugins.mentions.userSearch', { query: 'x'.repeat(500) })).rejects.toMatchObject({ key: 'error:invalid-data' });
      await postTopic(me.client, cid, { tags: ['socketing', 'sockets'] });
      expect(await call(live, 'topics.autocompleteTags', { query: 'sock', cid })).toEqual(['socketing', 'sockets']);
    } finally {
      live.close();
    }
  });
});
