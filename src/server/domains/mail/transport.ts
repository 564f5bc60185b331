import type { Transporter } from 'nodemailer';
import type { ForumSettings } from '../../../shared/constants.js';

/** One mail as the transport sends it. */
export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/** Whatever carries mail out: SMTP in production; the interface keeps the outbox independent of it. */
export interface MailTransport {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

type SmtpSettings = Pick<ForumSettings, 'smtpHost' | 'smtpPort' | 'smtpSecurity' | 'smtpUser' | 'smtpPassword'>;

// A server that accepts the connection and then says nothing must not hold a run for minutes.
const TIMEOUT_MS = 15_000;

/** Whether the forum can send mail: an SMTP host is set (without one, mail waits in the outbox). */
export function mailConfigured(s: Pick<ForumSettings, 'smtpHost'>): boolean {
  return s.smtpHost.trim() !== '';
}

/** An SMTP transport for the forum's settings, or null when no SMTP host is set. */
export function smtpTransport(s: SmtpSettings): MailTransport | null {
  if (!mailConfigured(s)) return null;
  // nodemailer is loaded with the first mail, not at start-up (some 4 MB and 30 ms a process
  // that never mails need not pay).
  let transporter: Promise<Transporter> | undefined;
  const open = () =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        host: s.smtpHost,
        port: s.smtpPort,
        secure: s.smtpSecurity === 'tls',
        requireTLS: s.smtpSecurity === 'starttls',
        ignoreTLS: s.smtpSecurity === 'none',
        auth: s.smtpUser ? { user: s.smtpUser, pass: s.smtpPassword } : undefined,
        connectionTimeout: TIMEOUT_MS,
        greetingTimeout: TIMEOUT_MS,
        socketTimeout: TIMEOUT_MS,
        logger: false,
      }),
    ));
  return {
    async send(m) {
      await (await open()).sendMail({ from: m.from, to: m.to, subject: m.subject, text: m.text, html: m.html, headers: m.headers });
    },
    close: () =>
      void transporter?.then(
        (t) => t.close(),
        () => undefined,
      ),
  };
}

/** The From address: the setting, or no-reply@ the forum's host. */
export function fromAddress(setting: string, siteTitle: string, forumUrl: string): string {
  if (setting) return setting;
  const host = new URL(forumUrl).hostname || 'localhost';
  // The title is quoted so a comma or an angle bracket in it cannot add recipients.
  return `"${siteTitle.replace(/["\\\r\n]/g, '')}" <no-reply@${host}>`;
}
