import { Writable } from 'node:stream';

/** Lines kept of the server log (admin/advanced/logs). */
export const LOG_LINES = 500;
const MAX_LINE = 4_000;

/** Names whose values never reach the admin's log view, even when a caller logged them by mistake. */
const SECRET = /("(?:password|passwd|secret|token|authorization|cookie|csrf|_csrf|smtpPass|apiKey|key)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

/** Masks secret-looking fields of a JSON log line. */
export function maskSecrets(line: string): string {
  return line.replace(SECRET, '$1"[Redacted]"');
}

/**
 * The last lines of the server's pino log, kept in memory: the stream pino writes to
 * passes every line on (stdout) and keeps the newest LOG_LINES, masked.
 */
export class LogRing extends Writable {
  private lines: string[] = [];
  private next = 0;

  constructor(private readonly pass: NodeJS.WritableStream | null = process.stdout) {
    super();
  }

  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    const text = chunk.toString();
    this.pass?.write(text);
    for (const line of text.split('\n')) if (line) this.push1(maskSecrets(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line));
    done();
  }

  private push1(line: string): void {
    if (this.lines.length < LOG_LINES) this.lines.push(line);
    else this.lines[this.next] = line;
    this.next = (this.next + 1) % LOG_LINES;
  }

  /** The kept lines, oldest first. */
  tail(): string[] {
    return this.lines.length < LOG_LINES ? [...this.lines] : [...this.lines.slice(this.next), ...this.lines.slice(0, this.next)];
  }

  clear(): void {
    this.lines = [];
    this.next = 0;
  }
}

/** This process's log ring (one server per process; tests share it). */
export const logRing = new LogRing();
