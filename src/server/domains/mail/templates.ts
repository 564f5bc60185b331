import { languageDir } from '../../../shared/languages.js';
import { translate, translateText } from '../../i18n.js';

/** What every mail shows: the forum's title and address, in the reader's language. */
export interface MailFrame {
  lang: string;
  siteTitle: string;
  /** The forum's absolute URL (no trailing slash). */
  url: string;
  username: string;
}

/** A rendered mail. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The data of each template. */
export type TemplateData =
  | { template: 'confirm'; link: string; hours: number }
  | { template: 'reset'; link: string; minutes: number }
  | { template: 'welcome' }
  | { template: 'notification'; text: string; link: string; unsubscribe: string }
  | { template: 'invitation'; link: string; inviter: string; days: number }
  | { template: 'registration-accepted'; link: string }
  | { template: 'test'; link: string }
  | { template: 'email-change-requested'; email: string; link: string }
  | { template: 'email-removed'; link: string }
  | { template: 'digest'; freq: 'day' | 'week' | 'month'; topics: { title: string; url: string; postcount: number }[]; settings: string };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** A translated notification text as plain text: the translations' markup (<strong>) dropped, entities (&#44;) decoded. */
export function plainText(html: string): string {
  return html
    // Only the translations' own markup: a title such as "<Hello>" stays as written.
    .replace(/<\/?(?:strong|em|b|i)>/g, '')
    .replace(/&(#\d{1,7}|[a-z]{2,5});/g, (m, e: string) => (e.startsWith('#') ? String.fromCodePoint(Math.min(Number(e.slice(1)), 0x10ffff)) : (ENTITIES[e] ?? m)));
}

/** Renders a mail from its template (HTML and plain text), translated for the reader. */
export function render(data: TemplateData, f: MailFrame): RenderedMail {
  const t = (key: string, ...params: (string | number)[]) => translate(`email:${key}`, params, f.lang);
  let subject: string;
  let lines: string[];
  let link: { href: string; label: string } | null;
  let unsubscribe = '';
  let list: { href: string; label: string }[] = [];
  switch (data.template) {
    case 'confirm':
      subject = t('confirm.subject', f.siteTitle);
      lines = [t('confirm.intro', f.siteTitle), t('confirm.expiry', data.hours)];
      link = { href: data.link, label: t('confirm.cta') };
      break;
    case 'reset':
      subject = t('reset.subject', f.siteTitle);
      lines = [t('reset.intro', f.siteTitle), t('reset.expiry', data.minutes)];
      link = { href: data.link, label: t('reset.cta') };
      break;
    case 'welcome':
      subject = t('welcome.subject', f.siteTitle);
      lines = [t('welcome.intro', f.siteTitle)];
      link = { href: `${f.url}/`, label: t('welcome.cta') };
      break;
    case 'notification': {
      const text = plainText(translateText(data.text, f.lang));
      // A subject is one line: a notification text with line breaks must not add headers.
      subject = t('notification.subject', f.siteTitle, text.replace(/\s+/g, ' ').slice(0, 200));
      lines = [text];
      link = { href: data.link, label: t('notification.cta') };
      unsubscribe = data.unsubscribe;
      break;
    }
    case 'invitation':
      subject = t('invitation.subject', data.inviter, f.siteTitle);
      lines = [t('invitation.intro', data.inviter, f.siteTitle), t('invitation.expiry', data.days)];
      link = { href: data.link, label: t('invitation.cta') };
      break;
    case 'registration-accepted':
      subject = t('registration-accepted.subject', f.siteTitle);
      lines = [t('registration-accepted.intro', f.siteTitle)];
      link = { href: data.link, label: t('registration-accepted.cta') };
      break;
    case 'test':
      subject = t('test.subject', f.siteTitle);
      lines = [t('test.intro', f.siteTitle)];
      link = { href: data.link, label: t('test.cta') };
      break;
    case 'email-change-requested':
      subject = t('email-change-requested.subject', f.siteTitle);
      lines = [t('email-change-requested.intro', f.siteTitle, data.email), t('email-change-requested.not-you')];
      link = { href: data.link, label: t('email-change-requested.cta') };
      break;
    case 'email-removed':
      subject = t('email-removed.subject', f.siteTitle);
      lines = [t('email-removed.intro', f.siteTitle), t('email-change-requested.not-you')];
      link = { href: data.link, label: t('email-change-requested.cta') };
      break;
    case 'digest':
      subject = t(`digest.subject.${data.freq}`, f.siteTitle);
      lines = [t(`digest.intro.${data.freq}`, f.siteTitle)];
      list = data.topics.map((topic) => ({ href: topic.url, label: t('digest.topic', translateText(topic.title, f.lang), topic.postcount) }));
      link = { href: `${f.url}/`, label: t('digest.cta') };
      unsubscribe = data.settings;
      break;
  }
  const greeting = f.username ? t('greeting', f.username) : t('greeting-no-name');
  const footer = t('footer', f.siteTitle, f.url);
  const text = [greeting, '', ...lines.flatMap((l) => [l, '']), ...list.flatMap((i) => [`- ${i.label}`, `  ${i.href}`]), ...(list.length ? [''] : []), `${link.label}: ${link.href}`, '', '--', footer, ...(unsubscribe ? [`${t(data.template === 'digest' ? 'digest.unsubscribe' : 'unsubscribe')}: ${unsubscribe}`] : [])].join('\n');
  const p = (s: string) => `<p>${escapeHtml(s)}</p>`;
  const html = [
    `<!doctype html><html lang="${escapeHtml(f.lang)}" dir="${languageDir(f.lang)}"><body style="font-family:sans-serif;line-height:1.5">`,
    p(greeting),
    ...lines.map(p),
    list.length ? `<ul>${list.map((i) => `<li><a href="${escapeHtml(i.href)}">${escapeHtml(i.label)}</a></li>`).join('')}</ul>` : '',
    `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`,
    `<hr><p style="font-size:small;color:#666">${escapeHtml(footer)}`,
    unsubscribe ? `<br><a href="${escapeHtml(unsubscribe)}">${escapeHtml(t(data.template === 'digest' ? 'digest.unsubscribe' : 'unsubscribe'))}</a>` : '',
    '</p></body></html>',
  ].join('\n');
  return { subject, text, html };
}
