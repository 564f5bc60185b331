import type { AccountSecurityBase, EditEmailPage, EditPasswordPage, EditUsernamePage, LoginTwoFactorPage, SessionsPage, TokensPage, TwoFactorPage } from '../../../shared/security.js';
import { forbidden, notFound } from '../../http/errors.js';
import { definePage, type PageContent, type PageRequest } from '../../http/pages.js';
import { twoFactor } from '../../plugins/two-factor/service.js';
import type { UserRow } from '../users/store.js';
import { listSessions, listTokens } from './security.js';

type Base = Omit<PageContent<AccountSecurityBase>, 'title'>;

/**
 * The member an account-security page is about, when the viewer may see it: themself, or an
 * admin (except `selfOnly` pages: a two-factor key is its owner's alone).
 */
async function accountOf(req: PageRequest, page: string, label: string, selfOnly = false): Promise<{ row: UserRow; base: Base } | { redirect: string }> {
  const { ctx, viewer, params } = req;
  const row = await ctx.users.bySlug(params.userslug!);
  if (!row || row.deleted === 1) throw notFound('error:no-user');
  if (row.uid !== viewer.uid && (selfOnly || !viewer.isAdmin)) throw forbidden();
  if (row.userslug !== params.userslug) return { redirect: `/user/${row.userslug}/${page}` };
  return {
    row,
    base: {
      breadcrumbs: [{ text: row.username, url: `/user/${row.userslug}` }, { text: label }],
      uid: row.uid,
      username: row.username,
      userslug: row.userslug,
      isSelf: row.uid === viewer.uid,
    },
  };
}

const sessionsPage = definePage<SessionsPage>({
  path: '/user/:userslug/sessions',
  template: 'account/sessions',
  requireLogin: true,
  async load(req) {
    const a = await accountOf(req, 'sessions', '[[pages:account/sessions]]');
    if ('redirect' in a) return a;
    return { ...a.base, title: '[[pages:account/sessions]]', sessions: await listSessions(req.ctx, a.row.uid, req.viewer.uid === a.row.uid ? (req.sessionHash ?? null) : null) };
  },
});

const twoFactorPage = definePage<TwoFactorPage>({
  path: '/user/:userslug/2factor',
  template: 'account/2factor',
  requireLogin: true,
  async load(req) {
    const a = await accountOf(req, '2factor', '[[pages:account/2factor]]', true);
    if ('redirect' in a) return a;
    const status = await twoFactor(req.ctx).status(a.row.uid);
    return { ...a.base, title: '[[pages:account/2factor]]', enabled: status.enabled, backupCodesLeft: status.backupCodesLeft };
  },
});

const tokensPage = definePage<TokensPage>({
  path: '/user/:userslug/tokens',
  template: 'account/tokens',
  requireLogin: true,
  async load(req) {
    const a = await accountOf(req, 'tokens', '[[pages:account/tokens]]');
    if ('redirect' in a) return a;
    return { ...a.base, title: '[[pages:account/tokens]]', tokens: await listTokens(req.ctx, a.row.uid) };
  },
});

const editPasswordPage = definePage<EditPasswordPage>({
  path: '/user/:userslug/edit/password',
  template: 'account/edit/password',
  requireLogin: true,
  async load(req) {
    const a = await accountOf(req, 'edit/password', '[[pages:account/edit/password]]');
    if ('redirect' in a) return a;
    const s = await req.ctx.settings.get();
    return {
      ...a.base,
      title: '[[pages:account/edit/password]]',
      minimumPasswordLength: s.minimumPasswordLength,
      minimumPasswordStrength: s.minimumPasswordStrength,
      requireCurrent: a.base.isSelf,
    };
  },
});

const editUsernamePage = definePage<EditUsernamePage>({
  path: '/user/:userslug/edit/username',
  template: 'account/edit/username',
  requireLogin: true,
  async load(req) {
    const a = await accountOf(req, 'edit/username', '[[pages:account/edit/username]]');
    if ('redirect' in a) return a;
    const s = await req.ctx.settings.get();
    const history = await req.ctx.users.usernameHistory(a.row.uid);
    return {
      ...a.base,
      title: '[[pages:account/edit/username]]',
      minimumUsernameLength: s.minimumUsernameLength,
      maximumUsernameLength: s.maximumUsernameLength,
      cooldownDays: req.viewer.isAdmin ? 0 : s.usernameChangeCooldownDays,
      history: history.map((h) => ({ ...h, changedISO: new Date(h.changed).toISOString() })),
    };
  },
});

const editEmailPage = definePage<EditEmailPage>({
  path: '/user/:userslug/edit/email',
  template: 'account/edit/email',
  requireLogin: true,
  async load(req) {
    const a = await accountOf(req, 'edit/email', '[[pages:account/edit/email]]');
    if ('redirect' in a) return a;
    return {
      ...a.base,
      title: '[[pages:account/edit/email]]',
      email: a.row.email ?? '',
      emailConfirmed: a.row.email_confirmed === 1,
      pendingEmail: await req.ctx.mail.pendingEmail(a.row),
      requirePassword: a.base.isSelf && !req.viewer.isAdmin,
    };
  },
});

const loginTwoFactorPage = definePage<LoginTwoFactorPage>({
  path: '/login/2fa/:variant?',
  template: 'login-2fa',
  async load({ ctx, viewer, params, query }) {
    const variant = params.variant ?? 'totp';
    if (variant !== 'totp' && variant !== 'backup') throw notFound();
    const next = typeof query.next === 'string' && /^\/(?![/\\])/.test(query.next) ? query.next : '/';
    // A member without a key has nothing to prove: on to where they were going.
    if (viewer.uid > 0 && !(await twoFactor(ctx).hasKey(viewer.uid))) return { redirect: next };
    return {
      title: '[[login:two-factor.title]]',
      breadcrumbs: [{ text: '[[global:login]]', url: '/login' }, { text: '[[login:two-factor.title]]' }],
      variant,
      next,
      reauth: viewer.uid > 0,
    };
  },
});

/** Account-security pages and the login's second step. */
export const securityPages = [sessionsPage, twoFactorPage, tokensPage, editPasswordPage, editUsernamePage, editEmailPage, loginTwoFactorPage];
