import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum, type TestMember } from '../../test/harness.js';
import { languageFixture } from '../../test/languages.js';
import { TestSmtp, type ReceivedMail } from './test-smtp.js';

// French texts for the keys a reply's notification mail uses (the rest of fr falls back to en-GB).
const fixture = languageFixture({
  fr: {
    global: { home: 'Accueil' },
    email: { greeting: 'Bonjour %1,', 'notification.subject': '[%1] %2', 'notification.cta': 'Voir le message' },
    notifications: { 'user-posted-to': '<strong>%1</strong> a répondu à <strong>%2</strong>' },
  },
});

let forum: TestForum;
let smtp: TestSmtp;
let cid: number;
let n = 0;

async function member(): Promise<TestMember> {
  const user = await forum.createUser({ username: `lang${++n}x`, email: `lang${n}@example.com` });
  await forum.ctx.db.updateTable('users').set({ email_confirmed: 1 }).where('uid', '=', user.uid).execute();
  return forum.member((await forum.ctx.users.get(user.uid))!);
}

/** A header as read: RFC 2047 encoded words (a subject with accents) decoded. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    );
}

/** Runs the due jobs, sends the outbox, and returns what reached this member. */
async function mailsTo(m: TestMember): Promise<ReceivedMail[]> {
  await forum.ctx.hooks.idle();
  while ((await forum.ctx.jobs.runDue(Date.now())) > 0) await forum.ctx.hooks.idle();
  await forum.ctx.mail.sendDue();
  let seen = -1;
  while (seen !== smtp.received.length) {
    seen = smtp.received.length;
    await new Promise((r) => setTimeout(r, 50));
  }
  // The confirmation mail sent at sign-up is not what this test looks at.
  return smtp.received.filter((r) => r.to.includes(m.user.email!) && !r.subject.startsWith('Please confirm'));
}

beforeAll(async () => {
  smtp = await new TestSmtp().start();
  forum = await startTestForum({ settings: { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecurity: 'none', smtpFrom: 'forum@example.com', siteTitle: 'Palaver' } });
  cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Open' })).cid;
});
afterAll(async () => {
  await forum?.close();
  await smtp?.stop();
  fixture.restore();
});

describe('mail in the recipient’s language', () => {
  it('mails a reply notification in French to a member who reads French, in English to one who does not', async () => {
    const [amelie, bob, carol] = [await member(), await member(), await member()];
    for (const m of [amelie, carol]) {
      const res = await m.client.put(`/api/v3/users/${m.user.uid}/settings`, { settings: { 'notificationType_new-reply': 'email', ...(m === amelie ? { userLang: 'fr' } : {}) } });
      expect(res.status).toBe(200);
    }
    const topic = (await forum.ctx.topics.create(amelie.viewer, { cid, title: 'Une question de grammaire', content: 'Le premier message du sujet' })).topic;
    await forum.ctx.topics.follow(carol.viewer, topic.tid, 'follow');
    expect((await bob.client.post(`/api/v3/topics/${topic.tid}`, { content: 'Une réponse assez longue pour passer.' })).status).toBe(200);

    const [fr] = await mailsTo(amelie);
    expect(fr, 'a mail to the French reader').toBeDefined();
    expect(decodeHeader(fr!.subject)).toBe(`[Palaver] ${bob.user.username} a répondu à Une question de grammaire`);
    expect(fr!.text).toContain(`Bonjour ${amelie.user.username},`);
    expect(fr!.text).toContain('Voir le message');
    expect(fr!.text).not.toContain('replied to');
    expect(fr!.html).toContain('lang="fr"');

    const [en] = await mailsTo(carol);
    expect(decodeHeader(en!.subject)).toBe(`[Palaver] ${bob.user.username} replied to Une question de grammaire`);
    expect(en!.text).toContain(`Hello ${carol.user.username},`);
  });
});
