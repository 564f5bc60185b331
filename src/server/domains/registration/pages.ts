import type { AccountConsentPage, RegisterPage, RegistrationQueuePage, TosPage } from '../../../shared/schemas/registration.js';
import type { PageBase } from '../../../shared/types.js';
import type { AppContext } from '../../context.js';
import { forbidden, notFound } from '../../http/errors.js';
import { definePage, type PageDef, type PageRequest } from '../../http/pages.js';
import { pageNumber, pagination } from '../../http/pagination.js';
import { registerNeedsCaptcha } from '../../plugins/captcha/index.js';
import { owner } from '../notifications/account-pages.js';
import { notifySettingsOf, parseSettings } from '../notifications/schemas.js';
import { presentUser } from '../users/presenter.js';

const QUEUE_PER_PAGE = 50;

/** The terms of use as sanitised HTML (the markdown pipeline), or '' when there are none. */
async function termsHtml(ctx: AppContext): Promise<string> {
  const terms = (await ctx.settings.get()).termsOfUse.trim();
  if (!terms) return '';
  return (await ctx.hooks.runFilter('filter:parse.post', { content: terms, html: '', kind: 'raw', uid: 0 })).html;
}

const registerPage = definePage<RegisterPage>({
  path: '/register',
  template: 'register',
  async load({ ctx, viewer, query }) {
    if (viewer.uid > 0) return { redirect: '/' };
    const s = await ctx.settings.get();
    const invitation = await ctx.registration.usableInvitation(query.token);
    let reason = '';
    if (!s.allowRegistration || s.registrationType === 'disabled') throw forbidden('error:registration-disabled');
    if (query.token && !invitation) reason = 'register:invite.error-invalid-data';
    else if (!invitation && s.registrationType === 'invite-only') reason = 'register:invite.error-invite-only';
    else if (!invitation && s.registrationType === 'admin-invite-only') reason = 'register:invite.error-admin-only';
    return {
      title: '[[global:register]]',
      breadcrumbs: [{ text: '[[global:register]]' }],
      allowRegistration: s.allowRegistration,
      minimumPasswordLength: s.minimumPasswordLength,
      minimumPasswordStrength: s.minimumPasswordStrength,
      minimumUsernameLength: s.minimumUsernameLength,
      maximumUsernameLength: s.maximumUsernameLength,
      registrationType: s.registrationType,
      registrationApprovalType: s.registrationApprovalType,
      termsOfUse: await termsHtml(ctx),
      gdpr_enabled: s.gdpr_enabled,
      captcha: await registerNeedsCaptcha(ctx),
      token: invitation ? query.token! : '',
      invitedEmail: invitation?.email ?? '',
      canRegister: reason === '',
      reason,
    };
  },
});

async function loadQueue({ ctx, viewer, query }: PageRequest) {
  if (!viewer.isAdmin) throw forbidden();
  const page = pageNumber(query.page);
  const { rows, count, byIp, invites } = await ctx.registration.queue(viewer, page, QUEUE_PER_PAGE);
  const pageCount = Math.max(1, Math.ceil(count / QUEUE_PER_PAGE));
  if (page > pageCount) throw notFound();
  const inviters = await ctx.users.getMany([...new Set(invites.map((i) => i.inviter))]);
  const grouped = new Map<number, { email: string }[]>();
  for (const i of invites) grouped.set(i.inviter, [...(grouped.get(i.inviter) ?? []), { email: i.email }]);
  return {
    title: '[[register:queue.title]]',
    breadcrumbs: [{ text: '[[register:queue.title]]' }],
    registrationQueueCount: count,
    users: rows.map((r) => ({
      username: r.username,
      email: r.email,
      ip: r.ip,
      timestampISO: new Date(r.created).toISOString(),
      usernameEscaped: r.username.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
      ipMatch: (byIp.get(r.ip) ?? []).map((u) => {
        const p = presentUser(u);
        return { uid: p.uid, username: p.username, userslug: p.userslug, picture: p.picture, 'icon:text': p['icon:text'], 'icon:bgColor': p['icon:bgColor'] };
      }),
      customActions: [],
    })),
    customHeaders: [],
    invites: [...grouped].map(([uid, invitations]) => ({ uid, username: inviters.get(uid)?.username ?? '', invitations })),
    pagination: pagination(page, pageCount, query),
  };
}

const adminQueuePage = definePage<RegistrationQueuePage>({ path: '/admin/manage/registration', template: 'admin/manage/registration', access: 'admin', load: loadQueue });
const queuePage = definePage<RegistrationQueuePage>({ path: '/registration-queue', template: 'registration-queue', requireLogin: true, load: loadQueue });

const consentPage = definePage<AccountConsentPage>({
  path: '/user/:userslug/consent',
  template: 'account/consent',
  requireLogin: true,
  async load({ ctx, viewer, params }) {
    const o = await owner(ctx, viewer, params.userslug!, 'consent');
    if ('redirect' in o) return o;
    const forum = await ctx.settings.get();
    const consent = await ctx.registration.consentOf(o.row.uid);
    const freq = notifySettingsOf(parseSettings(o.row.settings), { dailyDigestFreq: forum.dailyDigestFreq, categoryWatchState: 'watching' }).dailyDigestFreq;
    return {
      ...o.base,
      gdpr_consent: consent.gdpr_consent,
      gdpr_at: consent.gdpr_at,
      tos_at: consent.tos_at,
      termsOfUse: await termsHtml(ctx),
      digest: { frequency: freq, enabled: freq !== 'off' },
    };
  },
});

/** NodeBB's /tos: the forum's terms of use, for anyone; 404 while the forum has none (as NodeBB). */
const tosPage = definePage<TosPage>({
  path: '/tos',
  template: 'tos',
  async load({ ctx }) {
    const termsOfUse = await termsHtml(ctx);
    if (!termsOfUse) throw notFound();
    return { title: '[[register:terms_of_use]]', breadcrumbs: [{ text: '[[register:terms_of_use]]' }], termsOfUse };
  },
});

/**
 * NodeBB's /register/complete: the steps left after the form (its interstitials). Palaver's
 * form asks everything (terms, consent, e-mail) at once: none are left, and NodeBB then sends
 * the visitor back to /register.
 */
const registerCompletePage = definePage<PageBase>({
  path: '/register/complete',
  template: 'registerComplete',
  async load() {
    return { redirect: '/register' };
  },
});

/** Registration pages: the form, the admins' queue (both of NodeBB's paths), the member's consent page and the terms of use. */
export const registrationPages: PageDef<any>[] = [registerPage, adminQueuePage, queuePage, consentPage, tosPage, registerCompletePage];
