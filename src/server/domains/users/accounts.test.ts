import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../../test/harness.js';
import type { Viewer } from '../privileges/service.js';

let forum: TestForum;
const ADMIN: Viewer = { uid: 0, groups: ['administrators'], isAdmin: true, isGlobalMod: true };
const postgres = !!process.env.DATABASE_URL;

beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

describe('simultaneous registrations', () => {
  it('the second of two racing registrations with one username gets error:username-taken (HTTP)', async () => {
    const body = (email: string) => ({ username: 'racer', email, password: TEST_PASSWORD });
    const answers = await Promise.all([
      forum.client().post('/register', body('racer1@example.com')),
      forum.client().post('/register', body('racer2@example.com')),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.status === 400)!.body.status.key).toBe('error:username-taken');
  });

  it('the second of two racing registrations with one email gets error:email-taken (HTTP)', async () => {
    const body = (username: string) => ({ username, email: 'same@example.com', password: TEST_PASSWORD });
    const answers = await Promise.all([forum.client().post('/register', body('mailer1')), forum.client().post('/register', body('mailer2'))]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.status === 400)!.body.status.key).toBe('error:email-taken');
  });

  it('racing creations through the service: one member, one taken error', async () => {
    const make = (email: string) => forum.ctx.users.create({ username: 'Twin', email, password: TEST_PASSWORD });
    const results = await Promise.allSettled([make('twin1@example.com'), make('twin2@example.com'), make('twin3@example.com')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as { key: string }).key).toBe('error:username-taken');
  });
});

describe.skipIf(!postgres)('a registration that loses the race at the unique index (PostgreSQL)', () => {
  // Another transaction inserts the same name or email and commits only once our insert is
  // waiting on the unique index: our checks saw nothing, the database refuses the insert.
  async function raceAgainst(row: { username: string; email: string }, mine: { username: string; email: string }) {
    const other = new pg.Client({ connectionString: forum.ctx.config.databaseUrl ?? undefined });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('insert into users (username, userslug, email, joindate) values ($1, $2, $3, $4)', [
        row.username,
        row.username.toLowerCase(),
        row.email,
        Date.now(),
      ]);
      const attempt = forum.ctx.users.create({ ...mine, password: TEST_PASSWORD }).then(
        () => null,
        (err: { key?: string; status?: number }) => err,
      );
      // Wait until our insert is blocked behind the other transaction's row lock.
      for (;;) {
        const { rows } = await other.query("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
        if (rows[0].n > 0) break;
        await new Promise((r) => setImmediate(r));
      }
      await other.query('commit');
      return await attempt;
    } finally {
      await other.end();
    }
  }

  it('maps the username violation to 400 error:username-taken', async () => {
    const err = await raceAgainst({ username: 'LateName', email: 'late1@example.com' }, { username: 'LateName', email: 'late2@example.com' });
    expect(err).toMatchObject({ key: 'error:username-taken', status: 400 });
  });

  it('maps the email violation to 400 error:email-taken', async () => {
    const err = await raceAgainst({ username: 'LateMail1', email: 'late-mail@example.com' }, { username: 'LateMail2', email: 'late-mail@example.com' });
    expect(err).toMatchObject({ key: 'error:email-taken', status: 400 });
  });
});

describe('ban, unban, password change and deletion are one transaction each', () => {
  async function failEventsOfType(type: string): Promise<() => Promise<void>> {
    const db = forum.ctx.db;
    if (postgres) {
      await sql
        .raw(
          `create function fail_event() returns trigger language plpgsql as $$ begin if new.type = '${type}' then raise exception 'forced failure'; end if; return new; end $$;
           create trigger fail_event before insert on events for each row execute function fail_event();`,
        )
        .execute(db);
      return async () => {
        await sql.raw('drop trigger fail_event on events; drop function fail_event();').execute(db);
      };
    }
    await sql.raw(`create trigger fail_event before insert on events when new.type = '${type}' begin select raise(abort, 'forced failure'); end`).execute(db);
    return async () => {
      await sql.raw('drop trigger fail_event').execute(db);
    };
  }

  it('a ban whose audit event cannot be written leaves no ban, and the sessions and tokens stay', async () => {
    const { client, user } = await forum.loginAs();
    await forum.ctx.auth.createToken(user.uid);
    const restore = await failEventsOfType('user-ban');
    try {
      await expect(forum.ctx.users.ban(ADMIN, user.uid, 0, 'spam')).rejects.toThrow();
    } finally {
      await restore();
    }
    const row = await forum.ctx.users.get(user.uid);
    expect(row?.banned).toBe(0);
    expect((await client.get('/api/config')).body.uid).toBe(user.uid);
    const tokens = await forum.ctx.db.selectFrom('api_tokens').select('token_hash').where('uid', '=', user.uid).execute();
    expect(tokens).toHaveLength(1);
  });

  it('a password change whose audit event fails keeps the old password and the sessions', async () => {
    const { client, user } = await forum.loginAs();
    const restore = await failEventsOfType('password-change');
    try {
      await expect(forum.ctx.users.changePassword(ADMIN, user.uid, undefined, 'Another-Horse-77')).rejects.toThrow();
    } finally {
      await restore();
    }
    expect((await client.get('/api/config')).body.uid).toBe(user.uid);
    expect((await forum.client().post('/login', { username: user.username, password: TEST_PASSWORD })).status).toBe(200);
  });

  it('a ban writes the ban and its audit row together and fires its hook once, after commit', async () => {
    const user = await forum.createUser();
    let fired = 0;
    let seenBanned: number | undefined;
    const done = new Promise<void>((resolve) => {
      forum.ctx.hooks.action('action:user.banned', 'ban-watch', async ({ uid }) => {
        if (uid !== user.uid) return;
        fired += 1;
        // After commit: a fresh read sees the ban.
        seenBanned = (await forum.ctx.users.get(uid))?.banned;
        resolve();
      });
    });
    await forum.ctx.users.ban(ADMIN, user.uid, 0, 'spam');
    await done;
    forum.ctx.hooks.unregisterPlugin('ban-watch');
    expect(fired).toBe(1);
    expect(seenBanned).toBe(1);
    const events = await forum.ctx.db.selectFrom('events').select('data').where('type', '=', 'user-ban').execute();
    expect(events.some((e) => JSON.parse(e.data).targetUid === user.uid)).toBe(true);
  });

  it('a deletion whose audit event fails leaves the member and their tokens', async () => {
    const user = await forum.createUser();
    await forum.ctx.auth.createToken(user.uid);
    const restore = await failEventsOfType('user-delete');
    try {
      await expect(forum.ctx.users.delete(ADMIN, user.uid)).rejects.toThrow();
    } finally {
      await restore();
    }
    expect(await forum.ctx.users.get(user.uid)).not.toBeNull();
    expect(await forum.ctx.db.selectFrom('api_tokens').select('token_hash').where('uid', '=', user.uid).execute()).toHaveLength(1);
  });
});

describe('about and full name limits', () => {
  it('refuses an about-me over 1,000 characters and a full name over 255 with a key, never cuts', async () => {
    const { client, user } = await forum.loginAs();
    const about = await client.put(`/api/v3/users/${user.uid}`, { about: 'a'.repeat(1001) });
    expect(about.status).toBe(400);
    expect(about.body.status.key).toBe('error:about-me-too-long');
    expect(about.body.status.params).toEqual([1000]);
    const name = await client.put(`/api/v3/users/${user.uid}`, { fullname: 'n'.repeat(256) });
    expect(name.status).toBe(400);
    expect(name.body.status.key).toBe('error:fullname-too-long');
    const row = await forum.ctx.users.get(user.uid);
    expect(row?.about).toBe('');
    expect(row?.fullname).toBe('');
    const fits = await client.put(`/api/v3/users/${user.uid}`, { about: 'b'.repeat(1000), fullname: 'f'.repeat(255) });
    expect(fits.status).toBe(200);
    expect((await forum.ctx.users.get(user.uid))?.about).toHaveLength(1000);
  });

  it('stores the about-me rendered at write time, and renders an old row once', async () => {
    const { client, user } = await forum.loginAs();
    await client.put(`/api/v3/users/${user.uid}`, { about: 'I like **bold** things' });
    const row = (await forum.ctx.users.get(user.uid))!;
    expect(row.about_html).toContain('<strong>bold</strong>');
    expect(await forum.ctx.users.aboutHtml(row)).toBe(row.about_html);
    // A row written before the column existed: rendered on first read, then stored.
    await forum.ctx.db.updateTable('users').set({ about_html: '' }).where('uid', '=', user.uid).execute();
    const old = (await forum.ctx.users.get(user.uid))!;
    expect(await forum.ctx.users.aboutHtml(old)).toContain('<strong>bold</strong>');
    expect((await forum.ctx.users.get(user.uid))?.about_html).toContain('<strong>bold</strong>');
  });
});

describe("NodeBB's request bodies", () => {
  it('POST /users/{uid}/tokens with no body at all answers the token, which works', async () => {
    const { client, user } = await forum.loginAs();
    const csrf = await client.refreshCsrf();
    const res = await fetch(`${forum.baseUrl}/api/v3/users/${user.uid}/tokens`, {
      method: 'POST',
      headers: { 'x-csrf-token': csrf, cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    const body = (await res.json()) as { response: { token: string; uid: number } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.response.uid).toBe(user.uid);
    const api = forum.client();
    api.bearer = body.response.token;
    expect((await api.post('/api/v3/ping')).body.response.uid).toBe(user.uid);
  });

  it("PUT /users/{uid}/settings takes NodeBB's string values and ignores unknown fields", async () => {
    const { client, user } = await forum.loginAs();
    const res = await client.put(`/api/v3/users/${user.uid}/settings`, {
      settings: { showemail: '1', showfullname: '0', topicsPerPage: '35', openSidebars: 'on', someNodeBBOnlySetting: 'x' },
      extra: 'ignored',
    });
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ showemail: true, showfullname: false, topicsPerPage: 35 });
    // openSidebars is saved, but NodeBB's Settings answer does not list it.
    expect(res.body.response).not.toHaveProperty('openSidebars');
    const typed = await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { showemail: false, postsPerPage: 15 } });
    expect(typed.status).toBe(200);
    expect(typed.body.response).toMatchObject({ showemail: false, postsPerPage: 15, topicsPerPage: 35 });
    const bad = await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { showemail: 'maybe' } });
    expect(bad.status).toBe(400);
    expect(bad.body.status.key).toBe('error:invalid-data');
  });

  it('PUT /users/{uid}/status/{status} with no body, or {}', async () => {
    const { client, user } = await forum.loginAs();
    const csrf = await client.refreshCsrf();
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const bare = await fetch(`${forum.baseUrl}/api/v3/users/${user.uid}/status/away`, { method: 'PUT', headers: { 'x-csrf-token': csrf, cookie } });
    expect(bare.status, await bare.text()).toBe(200);
    const empty = await client.put(`/api/v3/users/${user.uid}/status/dnd`, {});
    expect(empty.status).toBe(200);
    expect((await forum.ctx.users.get(user.uid))?.status).toBe('dnd');
  });
});
