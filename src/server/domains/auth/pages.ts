import type { AccountSecurityBase, EditEmailPage, EditPasswordPage, EditUsernamePage, LoginTwoFactorPage, SessionsPage, TokensPage, TwoFactorPage } from '../../../shared/security.js';
import { forbidden, notFound } from '../../http/errors.js';
import { definePage, type PageContent, type PageRequest } from '../../http/pages.js';
import { securityKeys } from '../../plugins/two-factor/authn.js';
import { twoFactor } from '../../plugins/two-factor/service.js';
import type { UserRow } from '../users/store.js';
import { accountFields } from '../users/account-fields.js';
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
      // NodeBB's UserObjectFull (users/account-fields.ts), then the page's own fields.
      ...(await accountFields(ctx, viewer, row)),
      breadcrumbs: [{ text: row.username, url: `/user/${row.userslug}` }, { text: label }],
      uid: row.uid,
      username: row.username,
      userslug: row.userslug,
      isSelf: row.uid === viewer.uid,
    },
  };
}

/**
 * An account-security page at /user/:userslug/<page>: members only, about the member the
 * viewer may see (accountOf), titled by its page name; `data` adds the page's own fields.
 */
function securityPage<T extends AccountSecurityBase>(page: string, data: (req: PageRequest, row: UserRow, base: Base) => Promise<Omit<PageContent<T>, keyof Base | 'title'>>, selfOnly = false) {
  const title = `[[pages:account/${page}]]`;
  return definePage<T>({
    path: `/user/:userslug/${page}`,
    template: `account/${page}`,
    requireLogin: true,
    async load(req) {
      const a = await accountOf(req, page, title, selfOnly);
      if ('redirect' in a) return a;
      return { ...a.base, title, ...(await data(req, a.row, a.base)) } as PageContent<T>;
    },
  });
}

const sessionsPage = securityPage<SessionsPage>('sessions', async (req, row) => ({
  sessions: await listSessions(req.ctx, row.uid, req.viewer.uid === row.uid ? (req.sessionHash ?? null) : null),
}));

const twoFactorPage = securityPage<TwoFactorPage>(
  '2factor',
  async (req, row) => {
    const status = await twoFactor(req.ctx).status(row.uid);
    return { enabled: status.enabled, backupCodesLeft: status.backupCodesLeft, keys: await securityKeys(req.ctx).list(row.uid) };
  },
  true,
);

const tokensPage = securityPage<TokensPage>('tokens', async (req, row) => ({ tokens: await listTokens(req.ctx, row.uid) }));

// NodeBB's `hasPassword` on the edit pages: whether the member has a password (an imported account may not).
const editPasswordPage = securityPage<EditPasswordPage>('edit/password', async (req, row) => {
  const s = await req.ctx.settings.get();
  return { minimumPasswordLength: s.minimumPasswordLength, minimumPasswordStrength: s.minimumPasswordStrength, hasPassword: !!row.password_hash };
});

const editUsernamePage = securityPage<EditUsernamePage>('edit/username', async (req, row) => {
  const s = await req.ctx.settings.get();
  const history = await req.ctx.users.usernameHistory(row.uid);
  return {
    hasPassword: !!row.password_hash,
    minimumUsernameLength: s.minimumUsernameLength,
    maximumUsernameLength: s.maximumUsernameLength,
    cooldownDays: req.viewer.isAdmin ? 0 : s.usernameChangeCooldownDays,
    history: history.map((h) => ({ ...h, changedISO: new Date(h.changed).toISOString() })),
  };
});

const editEmailPage = securityPage<EditEmailPage>('edit/email', async (req, row, base) => ({
  email: row.email ?? '',
  emailConfirmed: row.email_confirmed === 1,
  pendingEmail: await req.ctx.mail.pendingEmail(row),
  requirePassword: base.isSelf && !!row.password_hash,
}));

const loginTwoFactorPage = definePage<LoginTwoFactorPage>({
  path: '/login/2fa/:variant?',
  template: 'login-2fa',
  async load({ ctx, viewer, params, query }) {
    const variant = params.variant ?? 'totp';
    if (variant !== 'totp' && variant !== 'backup' && variant !== 'authn') throw notFound();
    const next = typeof query.next === 'string' && /^\/(?![/\\])/.test(query.next) ? query.next : '/';
    // A member without a key has nothing to prove: on to where they were going.
    const variants = viewer.uid > 0 ? await twoFactor(ctx).variants(viewer.uid) : [];
    if (viewer.uid > 0 && variants.length === 0) return { redirect: next };
    const chosen = params.variant !== undefined;
    return {
      title: '[[login:two-factor.title]]',
      breadcrumbs: [{ text: '[[global:login]]', url: '/login' }, { text: '[[login:two-factor.title]]' }],
      variant: !chosen && variants.length > 0 ? variants[0]! : variant,
      chosen,
      variants,
      next,
      reauth: viewer.uid > 0,
    };
  },
});

/** Account-security pages and the login's second step. */
export const securityPages = [sessionsPage, twoFactorPage, tokensPage, editPasswordPage, editUsernamePage, editEmailPage, loginTwoFactorPage];
