import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { configCommand } from '../../domains/settings/cli.js';
import { startTestForum, TEST_PASSWORD, type TestForum, type TestMember } from '../../test/harness.js';
import { VERIFY_TIMEOUT_MS } from './third-party.js';

/** A stand-in for Google's and hCaptcha's siteverify: answers as `mode` says and records each request's form. */
class VerifyServer {
  mode: 'ok' | 'fail' | 'hang' | 'error' = 'ok';
  received: { path: string; form: Record<string, string> }[] = [];
  private server: Server = createServer((req, res) => void this.answer(req, res));
  port = 0;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  private async answer(req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    this.received.push({ path: req.url ?? '', form: Object.fromEntries(new URLSearchParams(body)) });
    if (this.mode === 'hang') return; // never answers
    if (this.mode === 'error') return void res.writeHead(500).end('oops');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.mode === 'ok' ? { success: true, hostname: 'forum' } : { success: false, 'error-codes': ['invalid-input-response'] }));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const SECRET = 'sekrit-captcha-key-0123456789';
const SITE_KEY = '6LeSiteKey_public-abc';
let forum: TestForum;
let verify: VerifyServer;
let admin: TestMember;
let closedPort = 0;
let n = 0;

beforeAll(async () => {
  verify = await new VerifyServer().start();
  // A port nothing listens on: the "unreachable provider".
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  forum = await startTestForum();
  admin = await forum.member({ admin: true });
});
afterAll(async () => {
  await forum?.close();
  await verify?.stop();
});
beforeEach(async () => {
  verify.mode = 'ok';
  verify.received = [];
  await forum.ctx.settings.set({
    'captcha:register': true,
    'captcha:loginFailures': 0,
    'captcha:provider': 'altcha',
    'captcha:siteKey': '',
    'captcha:secretKey': '',
    'captcha:recaptchaVerifyUrl': verify.url('/recaptcha/api/siteverify'),
    'captcha:hcaptchaVerifyUrl': verify.url('/hcaptcha/siteverify'),
  });
});

const fresh = () => {
  n += 1;
  const password = 'Quite-Long-Horse-81';
  return { username: `capt${process.pid % 1000}n${n}`, email: `capt${process.pid % 1000}n${n}@example.com`, password, 'password-confirm': password };
};
const THIRD_PARTY = /google\.com|gstatic\.com|hcaptcha\.com|recaptcha\.net/;

describe('captcha providers', () => {
  it('defaults to ALTCHA: no third-party origin in the page policy or the config, and a provider token does not pass', async () => {
    const { DEFAULT_SETTINGS } = await import('../../../shared/constants.js');
    expect(DEFAULT_SETTINGS['captcha:provider']).toBe('altcha');
    const page = await fetch(`${forum.baseUrl}/register`);
    const html = await page.text();
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(THIRD_PARTY);
    expect(csp).not.toContain('frame-src');
    expect(html).not.toMatch(THIRD_PARTY);
    const config = await forum.client().get('/api/config');
    expect(config.body.captcha).toMatchObject({ provider: 'altcha', targetId: 'altcha-captcha', publicKey: '' });
    expect(JSON.stringify(config.body)).not.toMatch(THIRD_PARTY);
    const res = await forum.client().post('/register', { ...fresh(), 'g-recaptcha-response': 'token-from-elsewhere' });
    expect([res.status, res.body.status.key]).toEqual([400, 'error:captcha-required']);
    expect(verify.received).toEqual([]);
  });

  it('reCAPTCHA: the page policy allows Google only then, the config carries the site key and never the secret, and the token is verified with the secret', async () => {
    await forum.ctx.settings.set({ 'captcha:provider': 'recaptcha', 'captcha:siteKey': SITE_KEY, 'captcha:secretKey': SECRET });
    const page = await fetch(`${forum.baseUrl}/register`);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self' https:\/\/www\.google\.com https:\/\/www\.gstatic\.com/);
    expect(csp).toMatch(/frame-src 'self' https:\/\/www\.google\.com/);
    expect(csp).not.toContain('hcaptcha');
    const html = await page.text();
    const config = await forum.client().get('/api/config');
    expect(config.body.captcha).toMatchObject({ provider: 'recaptcha', targetId: 'recaptcha-captcha', publicKey: SITE_KEY });
    for (const text of [html, JSON.stringify(config.body), JSON.stringify((await forum.client().get('/api/register')).body)]) expect(text).not.toContain(SECRET);

    const none = await forum.client().post('/register', fresh());
    expect([none.status, none.body.status.key]).toEqual([400, 'error:captcha-required']);
    // An ALTCHA payload is not what is asked for now.
    const altcha = await forum.client().post('/register', { ...fresh(), altcha: 'eyJ9' });
    expect([altcha.status, altcha.body.status.key]).toEqual([400, 'error:captcha-required']);

    const who = fresh();
    const ok = await forum.client().post('/register', { ...who, 'g-recaptcha-response': 'good-token' });
    expect(ok.status).toBe(200);
    expect((await forum.ctx.users.byUsername(who.username))?.uid).toBe(ok.body.uid);
    expect(verify.received).toHaveLength(1);
    expect(verify.received[0]!.path).toBe('/recaptcha/api/siteverify');
    expect(verify.received[0]!.form).toMatchObject({ secret: SECRET, response: 'good-token' });
    expect(verify.received[0]!.form.remoteip).toMatch(/127\.0\.0\.1/);

    verify.mode = 'fail';
    const refused = fresh();
    const bad = await forum.client().post('/register', { ...refused, 'g-recaptcha-response': 'bad-token' });
    expect([bad.status, bad.body.status.key]).toEqual([400, 'error:invalid-captcha']);
    expect(await forum.ctx.users.byUsername(refused.username)).toBeFalsy();
    verify.mode = 'error';
    const broken = await forum.client().post('/register', { ...fresh(), 'g-recaptcha-response': 'any-token' });
    expect([broken.status, broken.body.status.key]).toEqual([400, 'error:invalid-captcha']);
  });

  it('hCaptcha: its own field and verify address; a provider that is unreachable or does not answer in time lets nobody in', async () => {
    await forum.ctx.settings.set({ 'captcha:provider': 'hcaptcha', 'captcha:siteKey': SITE_KEY, 'captcha:secretKey': SECRET });
    const csp = (await fetch(`${forum.baseUrl}/register`)).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self' https:\/\/hcaptcha\.com https:\/\/\*\.hcaptcha\.com/);
    expect(csp).not.toContain('google');
    const wrongField = await forum.client().post('/register', { ...fresh(), 'g-recaptcha-response': 'good-token' });
    expect([wrongField.status, wrongField.body.status.key]).toEqual([400, 'error:captcha-required']);
    const ok = await forum.client().post('/register', { ...fresh(), 'h-captcha-response': 'good-token' });
    expect(ok.status).toBe(200);
    expect(verify.received.map((r) => [r.path, r.form.secret, r.form.response, r.form.sitekey])).toEqual([['/hcaptcha/siteverify', SECRET, 'good-token', SITE_KEY]]);

    await forum.ctx.settings.set({ 'captcha:hcaptchaVerifyUrl': `http://127.0.0.1:${closedPort}/siteverify` });
    const unreachable = fresh();
    const down = await forum.client().post('/register', { ...unreachable, 'h-captcha-response': 'good-token' });
    expect([down.status, down.body.status.key]).toEqual([400, 'error:invalid-captcha']);
    expect(await forum.ctx.users.byUsername(unreachable.username)).toBeFalsy();

    await forum.ctx.settings.set({ 'captcha:hcaptchaVerifyUrl': verify.url('/hcaptcha/siteverify') });
    verify.mode = 'hang';
    const started = Date.now();
    const slow = await forum.client().post('/register', { ...fresh(), 'h-captcha-response': 'good-token' });
    expect([slow.status, slow.body.status.key]).toEqual([400, 'error:invalid-captcha']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(VERIFY_TIMEOUT_MS - 100);
  }, 20_000);

  it('no secret key set: the token is refused without asking anyone', async () => {
    await forum.ctx.settings.set({ 'captcha:provider': 'recaptcha', 'captcha:siteKey': SITE_KEY });
    const res = await forum.client().post('/register', { ...fresh(), 'g-recaptcha-response': 'good-token' });
    expect([res.status, res.body.status.key]).toEqual([400, 'error:invalid-captcha']);
    expect(verify.received).toEqual([]);
  });

  it('login after repeated failures asks for the provider token and verifies it', async () => {
    await forum.ctx.settings.set({ 'captcha:provider': 'recaptcha', 'captcha:siteKey': SITE_KEY, 'captcha:secretKey': SECRET, 'captcha:loginFailures': 2 });
    const user = await forum.createUser();
    const client = forum.client();
    for (let i = 0; i < 2; i++) expect((await client.post('/login', { username: user.username, password: 'not-the-password' })).status).toBe(403);
    const asked = await client.post('/login', { username: user.username, password: TEST_PASSWORD });
    expect([asked.status, asked.body.status.key]).toEqual([400, 'error:captcha-required']);
    verify.mode = 'fail';
    const refused = await client.post('/login', { username: user.username, password: TEST_PASSWORD, 'g-recaptcha-response': 'bad' });
    expect([refused.status, refused.body.status.key]).toEqual([400, 'error:invalid-captcha']);
    verify.mode = 'ok';
    const ok = await client.post('/login', { username: user.username, password: TEST_PASSWORD, 'g-recaptcha-response': 'good' });
    expect(ok.status).toBe(200);
    expect(ok.body.uid).toBe(user.uid);
    expect(verify.received.at(-1)!.form).toMatchObject({ secret: SECRET, response: 'good' });
  });

  it('the secret key is masked in `palaver config list`, the admin API and the settings page', async () => {
    await forum.ctx.settings.set({ 'captcha:secretKey': SECRET, 'captcha:siteKey': SITE_KEY });
    const list = await configCommand(forum.ctx, SYSTEM, ['list']);
    expect(list.out).toContain('captcha:secretKey = ********');
    expect(list.out).toContain(`captcha:siteKey = ${SITE_KEY}`);
    expect(list.out).not.toContain(SECRET);
    expect((await configCommand(forum.ctx, SYSTEM, ['get', 'captcha:secretKey'])).out).toBe('********');
    const page = await admin.client.get('/api/admin/settings/user');
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.body)).not.toContain(SECRET);
    expect(page.body.secretsSet['captcha:secretKey']).toBe(true);
    const field = (page.body.sections as { fields: { key: string; control: string; options?: string[] }[] }[]).flatMap((s) => s.fields);
    expect(field.find((f) => f.key === 'captcha:secretKey')?.control).toBe('password');
    expect(field.find((f) => f.key === 'captcha:provider')).toMatchObject({ control: 'select', options: ['altcha', 'recaptcha', 'hcaptcha'] });
    const bad = await admin.client.put('/api/v3/admin/settings', { values: { 'captcha:provider': 'somebody-else' } });
    expect(bad.status).toBe(400);
  });
});
