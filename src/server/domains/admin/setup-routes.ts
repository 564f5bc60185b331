import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { SetupPage } from '../../../shared/schemas/admin-shell.js';
import type { AppContext } from '../../context.js';
import { cookieOptions, SESSION_COOKIE } from '../../http/auth.js';
import { setCookie } from '../../http/cookies.js';
import { badRequest, notFound } from '../../http/errors.js';
import { forumLanguage, requestLanguage } from '../../http/language.js';
import { definePage } from '../../http/pages.js';
import { languageName, translate } from '../../i18n.js';
import { SYSTEM, setupForum } from '../../setup.js';
import { ADMINISTRATORS } from '../groups/service.js';

/**
 * First-run setup (issue 16 §1, NodeBB's web installer): `palaver start` on an empty database
 * (no member at all, so no administrator) serves /setup instead of the forum until someone
 * creates the first administrator there. Only `palaver start` turns it on (startFirstRun):
 * the CLI, PALAVER_ADMIN_* and the test harness never do. While it is off (every forum with an
 * administrator) the request hook reads one boolean and /setup is a 404.
 */
interface FirstRunState {
  active: boolean;
}

const states = new WeakMap<AppContext, FirstRunState>();

function stateOf(ctx: AppContext): FirstRunState {
  let s = states.get(ctx);
  if (!s) {
    s = { active: false };
    states.set(ctx, s);
  }
  return s;
}

/** True while this process serves the setup page instead of the forum. */
export function firstRunActive(ctx: AppContext): boolean {
  return stateOf(ctx).active;
}

/**
 * Turns first-run mode on when the database has no member and no administrator (called by
 * `palaver start` after the migrations). A forum with members but no administrator is not
 * handed to whoever opens it first: its administrator comes from the CLI. Returns the mode.
 */
export async function startFirstRun(ctx: AppContext): Promise<boolean> {
  const admins = await ctx.groups.members(ADMINISTRATORS);
  const { count } = await ctx.users.list('joindate', 1, 1);
  stateOf(ctx).active = admins.length === 0 && count === 0;
  return stateOf(ctx).active;
}

/**
 * While first-run mode is on, another process (or the CLI) may have made the administrator:
 * checked per request only in that mode, and once an administrator exists, never again.
 */
async function stillFirstRun(ctx: AppContext): Promise<boolean> {
  const s = stateOf(ctx);
  if (!s.active) return false;
  if ((await ctx.groups.members(ADMINISTRATORS)).length > 0) s.active = false;
  return s.active;
}

const MAX_TITLE = 255;

export const SetupBody = Type.Object({
  siteTitle: Type.String({ maxLength: 1024 }),
  username: Type.String({ maxLength: 1024 }),
  email: Type.String({ maxLength: 1024 }),
  password: Type.String({ maxLength: 1024 }),
  'password-confirm': Type.Optional(Type.String({ maxLength: 1024 })),
  demo: Type.Optional(Type.Boolean()),
});
const SetupAnswer = Type.Object({ next: Type.String(), uid: Type.Number() });

/** The welcome topic of the optional demo content, in the language the forum is set up in. */
const welcome = (lang: string) => ({ title: translate('admin-setup:welcome-title', [], lang), content: translate('admin-setup:welcome-content', [], lang) });

/**
 * The language a forum set up from a page in `pageLang` speaks: that language, unless it is
 * another variant of the forum's present one (an en-US browser keeps an en-GB forum).
 */
export function setupLanguage(pageLang: string, s: { defaultLang: string }): string {
  const current = forumLanguage(s);
  return pageLang.split('-')[0] === current.split('-')[0] ? current : pageLang;
}

/** The paths a setup visitor can still reach: the setup page and its form. */
function isSetupPath(inner: string): boolean {
  const p = inner.split('?')[0]!.replace(/\/$/, '');
  return p === '/setup' || p === '/api/setup';
}

/** The request hook (pages redirect to /setup, other writes wait) and the form's POST /setup. */
export function registerFirstRun(app: FastifyInstance, ctx: AppContext): void {
  const state = stateOf(ctx);
  const base = ctx.config.relativePath;
  // Callback style: outside first-run mode (every request but the first minutes of a forum)
  // this costs one branch, not a promise.
  app.addHook('onRequest', (req, reply, done) => {
    if (!state.active) return done();
    firstRunGate(req, reply).then((answered) => (answered ? undefined : done()), done);
  });
  const firstRunGate = async (req: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const inner = req.url.slice(base.length) || '/';
    if (isSetupPath(inner)) return false;
    const page = Boolean(req.routeOptions.config?.page);
    const write = req.method !== 'GET' && req.method !== 'HEAD';
    if (!page && !write) return false; // assets, language files, read-only API
    if (!(await stillFirstRun(ctx))) return false;
    if (page && !write) {
      if (inner.startsWith('/api/')) reply.code(200).header('x-redirect', `${base}/setup`).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify(`${base}/setup`));
      else reply.header('cache-control', 'no-store').redirect(`${base}/setup`, 302);
      return true;
    }
    reply
      .code(503)
      .type('application/json; charset=utf-8')
      .send({ status: { code: 'service-unavailable', message: 'error:setup-required' }, response: {} });
    return true;
  };

  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post('/setup', {
    schema: { body: SetupBody, response: { 200: SetupAnswer }, tags: ['auth'] },
    handler: async (req, reply) => {
      if (!(await stillFirstRun(ctx))) throw notFound();
      const body = req.body;
      // The forum is set up in the language of the page the form was on.
      const before = await ctx.settings.get();
      const pageLang = requestLanguage(req, before);
      const lang = setupLanguage(pageLang, before);
      const siteTitle = body.siteTitle.trim();
      if (!siteTitle || siteTitle.length > MAX_TITLE) throw badRequest('error:invalid-site-title');
      if (body['password-confirm'] !== undefined && body['password-confirm'] !== body.password) throw badRequest('error:passwords-do-not-match');
      const work = (async () => {
        // The account's checks (username, address, spec §5 password rules) come first: a refused
        // form changes nothing, not even the title. Two forms at once (in this process or two) are
        // decided by the database (setup.ts claimSetup): the one that loses gets a 404.
        const uid = await setupForum(ctx, { username: body.username, email: body.email, password: body.password }, pageLang);
        if (!uid) throw notFound();
        // Checked by the settings schema; recorded in the audit log as an admin's change is.
        // The browser title too: a new forum's tab shows its name, not "Palaver" (issue 52).
        await ctx.settings.set({ siteTitle, browserTitle: siteTitle });
        await ctx.events.log('config-change', uid, { key: 'siteTitle', from: before.siteTitle, to: siteTitle }, req.ip);
        await ctx.events.log('config-change', uid, { key: 'browserTitle', from: before.browserTitle, to: siteTitle }, req.ip);
        if (lang !== forumLanguage(before)) {
          await ctx.settings.set({ defaultLang: lang });
          await ctx.events.log('config-change', uid, { key: 'defaultLang', from: before.defaultLang, to: lang }, req.ip);
        }
        if (body.demo) {
          const [category] = await ctx.categories.list(SYSTEM);
          if (category) await ctx.topics.create(await ctx.privileges.viewer(uid), { cid: category.cid, ...welcome(pageLang) }, req.ip);
        }
        return uid;
      })();
      const uid = await work;
      state.active = false;
      ctx.changes.publish(['cache:guest-pages']);
      // The new administrator's session (as a login starts one: the cookie, then the hook).
      const settings = await ctx.settings.get();
      const sid = await ctx.auth.createSession(uid, req.ip, req.headers['user-agent'] ?? '', settings.sessionDays);
      setCookie(reply, SESSION_COOKIE, sid, cookieOptions(ctx, settings.sessionDays * 86400));
      await ctx.hooks.fire('action:user.loggedIn', { uid, sessionId: sid, ip: req.ip });
      return { next: `${base}/admin`, uid };
    },
  });
}

/** GET /setup (and /api/setup): the form while first-run mode is on, a 404 for good after. */
export const setupPages = [
  definePage<SetupPage>({
    path: '/setup',
    template: 'setup',
    async load({ ctx, lang }) {
      if (!(await stillFirstRun(ctx))) throw notFound();
      const s = await ctx.settings.get();
      return {
        title: '[[admin-setup:title]]',
        siteTitle: s.siteTitle,
        languageName: languageName(setupLanguage(lang ?? forumLanguage(s), s)),
        minimumUsernameLength: s.minimumUsernameLength,
        maximumUsernameLength: s.maximumUsernameLength,
        minimumPasswordLength: s.minimumPasswordLength,
        minimumPasswordStrength: s.minimumPasswordStrength,
        meta: [{ name: 'robots', content: 'noindex' }],
      };
    },
  }),
];
