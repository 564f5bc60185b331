import { Type, type TSchema } from 'typebox';
import { translate } from '../i18n.js';
import { STATUS_CODES, type AppError } from './errors.js';

/** The v3 envelope's status part. */
export const StatusSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  key: Type.Optional(Type.String()),
  params: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number()]))),
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

/** The envelope for an error: code word, message in `lang` (the reader's; default en-GB), key and params. */
export function errorEnvelope(err: AppError, lang?: string) {
  return {
    status: {
      code: STATUS_CODES[err.status] ?? 'error',
      message: translate(err.key, err.params, lang),
      key: err.key,
      ...(err.params.length ? { params: err.params } : {}),
    },
    response: {},
  };
}
