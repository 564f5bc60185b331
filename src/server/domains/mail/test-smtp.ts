import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the test SMTP server received it. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  headers: string;
  text: string;
  html: string;
}

function decode(body: string, encoding: string): string {
  if (/quoted-printable/i.test(encoding)) {
    const bytes = Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
    return bytes.toString('utf8');
  }
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

function header(headers: string, name: string): string {
  const m = new RegExp(`^${name}:[ \\t]*((?:.*)(?:\\r?\\n[ \\t].*)*)`, 'im').exec(headers);
  return m ? m[1]!.replace(/\r?\n[ \t]/g, ' ').trim() : '';
}

/** Reads the subject, text and HTML parts of a raw (MIME) mail: enough for our own mails. */
export function parseMail(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const out: ReceivedMail = { to, subject: header(headers, 'Subject'), headers, text: '', html: '' };
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(header(headers, 'Content-Type'))?.[1];
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1) : [`${headers}\r\n\r\n${body}`];
  for (const part of parts) {
    const at = part.indexOf('\r\n\r\n');
    const h = part.slice(0, at);
    const content = decode(part.slice(at + 4).replace(/\r\n$/, ''), header(h, 'Content-Transfer-Encoding'));
    if (/text\/plain/i.test(header(h, 'Content-Type'))) out.text = content.replace(/\r\n/g, '\n');
    if (/text\/html/i.test(header(h, 'Content-Type'))) out.html = content;
  }
  return out;
}

/** A real SMTP server on a loopback port for tests; `refuse` makes it answer every mail with a 451. */
export class TestSmtp {
  received: ReceivedMail[] = [];
  refuse = false;
  logins: string[] = [];
  private server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, cb) => {
      this.logins.push(`${auth.username}:${auth.password}`);
      if (auth.username === 'palaver' && auth.password === 'smtp-pass-123') return cb(null, { user: auth.username });
      return cb(new Error('Invalid username or password'));
    },
    onData: (stream, session, cb) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (this.refuse) {
          const err = new Error('Try again later') as Error & { responseCode: number };
          err.responseCode = 451;
          return cb(err);
        }
        this.received.push(parseMail(Buffer.concat(chunks).toString('utf8'), session.envelope.rcptTo.map((r) => r.address)));
        cb();
      });
    },
  });
  port = 0;

  /** Listens on a free loopback port. */
  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  /** Stops listening. */
  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
