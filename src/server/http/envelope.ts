import { Type, type TSchema } from 'typebox';
import { translate } from '../i18n.js';
import { STATUS_CODES, type AppError } from './errors.js';

/** The v3 envelope's status part. */
export const StatusSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  key: Type.Optional(Type.String()),
  params: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number()]))),
  /** Indexes of `params` that are times in epoch ms (a ban's end), for the client to show in its reader's locale. */
  dates: Type.Optional(Type.Array(Type.Integer())),
});

/** Response schema of a v3 route answering `{ status, response }`. */
export function Envelope<T extends TSchema>(response: T) {
  return Type.Object({ status: StatusSchema, response });
}

/** The empty response object many v3 writes answer with. */
export const Empty = Type.Object({});

/** Wraps a successful result in the v3 envelope. */
export function ok<T>(response: T): { status: { code: string; message: string }; response: T } {
  return { status: { code: 'ok', message: 'OK' }, response };
}

/** A time as a date in a language, in UTC (the server knows no reader's time zone). */
function serverDate(ms: number, lang = 'en-GB'): string {
  let locale = lang;
  try {
    Intl.DateTimeFormat.supportedLocalesOf([lang]);
  } catch {
    locale = 'en-GB';
  }
  return `${new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(ms))} UTC`;
}

/**
 * The envelope for an error: code word, message in `lang` (the reader's; default en-GB), key and
 * params. Params that are times are written as dates in that language in the message, and stay
 * epoch ms in `params` with their indexes in `dates`.
 */
export function errorEnvelope(err: AppError, lang?: string) {
  const shown = err.dates.length ? err.params.map((p, i) => (err.dates.includes(i) && typeof p === 'number' ? serverDate(p, lang) : p)) : err.params;
  return {
    status: {
      code: STATUS_CODES[err.status] ?? 'error',
      message: translate(err.key, shown, lang),
      key: err.key,
      ...(err.params.length ? { params: err.params } : {}),
      ...(err.dates.length ? { dates: err.dates } : {}),
    },
    response: {},
  };
}
