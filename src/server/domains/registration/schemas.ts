import { Type } from 'typebox';

const str = (max = 1024) => Type.Optional(Type.String({ maxLength: max }));
const flag = Type.Optional(Type.Union([Type.Boolean(), Type.String({ maxLength: 10 })]));

/** The registration form's body (POST /register); fields optional so the service answers each missing one with its key. */
export const RegisterBody = Type.Object({
  username: str(),
  email: str(),
  password: str(),
  'password-confirm': str(),
  altcha: str(4096),
  'g-recaptcha-response': str(8192),
  'h-captcha-response': str(8192),
  token: str(200),
  'agree-terms': flag,
  gdpr_consent: flag,
  website: str(),
});

/** POST /register's answer: where to go next (a member) or the queue's message. */
export const RegisterAnswer = Type.Object({ next: Type.String(), uid: Type.Number(), message: Type.Optional(Type.String()) });
